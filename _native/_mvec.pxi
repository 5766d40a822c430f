# MVec<T>: the subset of std::vector the index uses, able to *borrow* memory it does not own.
#
# A saved index is loaded by mapping its file copy-on-write (mmap ACCESS_COPY) and pointing
# the arrays into the mapping: nothing is read until a query touches it, and pages stay
# shared with the page cache until written.  In-place writes (a df count, a table entry)
# go to private copies of the touched pages; anything that grows an array first moves it
# to owned heap memory.  Only trivially copyable element types are used.

cdef extern from *:
    """
    #include <cstdlib>
    #include <cstring>
    #include <new>
    #include <utility>

    template <typename T>
    struct MVec {
        T *ptr;
        size_t n;
        size_t cap;
        bool borrowed;

        MVec() : ptr(nullptr), n(0), cap(0), borrowed(false) {}
        MVec(const MVec &o) : ptr(nullptr), n(0), cap(0), borrowed(false) { copy_from(o); }
        MVec &operator=(const MVec &o) {
            if (this != &o) { n = 0; copy_from(o); }
            return *this;
        }
        ~MVec() { release(); }

        void release() {
            if (!borrowed) std::free(ptr);
            ptr = nullptr; n = 0; cap = 0; borrowed = false;
        }
        void copy_from(const MVec &o) {
            own(o.n);
            if (o.n) std::memcpy(ptr, o.ptr, o.n * sizeof(T));
            n = o.n;
        }
        /* Owned storage with room for at least `want` elements (copies borrowed data out). */
        void own(size_t want) {
            if (!borrowed && want <= cap) return;
            if (want < n) want = n;
            size_t bytes = (want ? want : 1) * sizeof(T);
            T *p;
            if (borrowed) {
                p = static_cast<T *>(std::malloc(bytes));
                if (!p) throw std::bad_alloc();
                if (n) std::memcpy(p, ptr, n * sizeof(T));
                borrowed = false;
            } else {
                p = static_cast<T *>(std::realloc(ptr, bytes));
                if (!p) throw std::bad_alloc();
            }
            ptr = p;
            cap = want;
        }
        void borrow(T *p, size_t m) { release(); ptr = p; n = m; cap = m; borrowed = true; }

        size_t size() const { return n; }
        size_t capacity() const { return cap; }
        T *data() { return ptr; }
        T &operator[](size_t i) { return ptr[i]; }
        T &back() { return ptr[n - 1]; }
        void reserve(size_t c) { if (c > cap) own(c); }
        void push_back(const T &v) {
            T copy = v;  /* v may live in this array */
            if (n == cap || borrowed) own(cap + cap / 2 + 16);
            ptr[n++] = copy;
        }
        void resize(size_t m) { resize(m, T()); }
        void resize(size_t m, const T &v) {
            T copy = v;
            if (m > cap || (borrowed && m > n)) own(m);
            for (size_t i = n; i < m; i++) ptr[i] = copy;
            n = m;
        }
        void assign(size_t m, const T &v) {
            T copy = v;
            if (borrowed) release();
            own(m);
            for (size_t i = 0; i < m; i++) ptr[i] = copy;
            n = m;
        }
        void clear() { if (borrowed) release(); else n = 0; }
        void shrink_to_fit() {
            if (borrowed || cap == n) return;
            if (n == 0) { std::free(ptr); ptr = nullptr; cap = 0; return; }
            T *p = static_cast<T *>(std::realloc(ptr, n * sizeof(T)));
            if (p) { ptr = p; cap = n; }
        }
        void swap(MVec &o) {
            std::swap(ptr, o.ptr); std::swap(n, o.n); std::swap(cap, o.cap); std::swap(borrowed, o.borrowed);
        }
    };
    """
    cdef cppclass MVec[T]:
        MVec() except +
        bint borrowed
        size_t size()
        size_t capacity()
        T *data()
        T &operator[](size_t)
        T &back()
        void reserve(size_t) except +
        void push_back(const T &) except +
        void resize(size_t) except +
        void resize(size_t, const T &) except +
        void assign(size_t, const T &) except +
        void clear()
        void shrink_to_fit()
        void swap(MVec[T] &)
        void borrow(T *, size_t)
