"""BLAKE2b digests for cache keys, without loading OpenSSL.

``import hashlib`` loads OpenSSL's ``_hashlib`` (~11M instructions, ~2.5 ms) although BLAKE2
is CPython's own ``_blake2`` module: a hook process that only names a cache file or keys a
parsed header takes the digest from ``_blake2`` directly (the same bytes ``hashlib`` gives).
"""

from __future__ import annotations

try:
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - an interpreter without CPython's _blake2
    from hashlib import blake2b as _blake2b


def bucket_of(word: str, buckets: int) -> int:
    """Which of ``buckets`` buckets ``word`` falls in: the same in every process (unlike ``hash``)."""
    from binascii import crc32

    return crc32(word.encode("utf-8", "surrogatepass")) % buckets


def digest(data: bytes, size: int) -> bytes:
    """``hashlib.blake2b(data, digest_size=size).digest()``."""
    return bytes(_blake2b(data, digest_size=size).digest())


def hexdigest(data: bytes, size: int) -> str:
    """``hashlib.blake2b(data, digest_size=size).hexdigest()``."""
    return str(_blake2b(data, digest_size=size).hexdigest())


__all__ = ["bucket_of", "digest", "hexdigest"]
