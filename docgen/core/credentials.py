"""Whether a constant looks like a credential, by its name or by its value: pure, no input read.

docgen publishes the constants a page shows (and the JSON beside it), so a constant that looks like a secret
must not get there unless the configuration says it is public. Two signs are enough:

- its NAME has a word (split on `_`, `-` and case changes) that names a secret: password, passwd, secret,
  token, key, apikey, credential, private (and their plurals), or `api` then `key`; only a value that holds
  text counts (`MAX_TOKENS = 4096` is a number, not a secret);
- a piece of text in its VALUE looks like one: a well-known key prefix (`sk_live_`, `ghp_`, `AKIA`, a PEM
  private key, ...), a URL with a password in it, or a long run of key characters (20 or more, no spaces,
  letters and digits both) whose Shannon entropy is high: 3.0 bits a character for hexadecimal, 4.0 for
  any other alphabet.
  The highest string in this repository's own catalogs is the site's URL, at 3.95 bits (and URLs without a
  password never count); 32 random URL-safe base64 characters measure about 4.6, 32 hex digits about 3.5.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterator

SECRET_WORDS = frozenset(
    {"password", "passwd", "secret", "token", "key", "apikey", "credential", "private"}
    | {"passwords", "secrets", "tokens", "keys", "apikeys", "credentials"}
)
"""A word of a constant's name that says it holds a secret."""

KEY_PREFIXES = (
    "sk_live_",
    "sk_test_",
    "rk_live_",
    "sk-",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "AKIA",
    "ASIA",
    "AIza",
    "eyJ",
)
"""Prefixes of well-known kinds of API keys (Stripe, OpenAI, GitHub, GitLab, Slack, AWS, Google; a JSON
Web Token)."""

MIN_SECRET_LENGTH = 20
"""The shortest run of key characters judged by its entropy."""
HEX_ENTROPY = 3.0
"""Bits a character from which a hexadecimal string of MIN_SECRET_LENGTH or more counts as a secret."""
OTHER_ENTROPY = 4.0
"""The same for any other string made of key characters."""

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_KEY_CHARACTERS = re.compile(r"[A-Za-z0-9+/=_\-.~]+")
_HEX = re.compile(r"[0-9a-fA-F]+")
_PASSWORD_IN_URL = re.compile(r"^[a-z][a-z0-9+.\-]*://[^/@\s:]+:[^/@\s]+@", re.IGNORECASE)
_SHORTEST_PREFIXED = 12


def name_words(name: str) -> list[str]:
    """The words of a name, lower case: `DB_PASSWORD` -> db, password; `apiKey` -> api, key."""
    return [word.lower() for word in _WORD.findall(name)]


def credential_reason(name: str, value: object) -> str | None:
    """Why constant `name` with `value` looks like a credential, or None when it does not."""
    texts = list(texts_of(value))
    if not texts:
        return None
    words = name_words(name)
    secret = [word for word in words if word in SECRET_WORDS]
    if not secret and any(a == "api" and b == "key" for a, b in itertools.pairwise(words)):
        secret = ["api key"]
    if secret:
        return f"its name says it holds a {secret[0]}"
    for text in texts:
        reason = text_reason(text)
        if reason is not None:
            return reason
    return None


def text_reason(text: str) -> str | None:
    """Why a piece of text looks like a secret, or None."""
    if _PASSWORD_IN_URL.match(text):
        return "its value is a URL with a password in it"
    if "PRIVATE KEY-----" in text:
        return "its value holds a private key"
    if len(text) >= _SHORTEST_PREFIXED and text.startswith(KEY_PREFIXES):
        return f"its value starts like an API key ({next(p for p in KEY_PREFIXES if text.startswith(p))})"
    if len(text) < MIN_SECRET_LENGTH or not _KEY_CHARACTERS.fullmatch(text) or "://" in text:
        return None
    if not (any(c.isdigit() for c in text) and any(c.isalpha() for c in text)):
        return None  # a word, a media type, a run of digits: keys mix letters and digits
    bits = entropy(text)
    threshold = HEX_ENTROPY if _HEX.fullmatch(text) else OTHER_ENTROPY
    if bits >= threshold:
        return f"its value is a long random-looking string ({bits:.2f} bits a character)"
    return None


def entropy(text: str) -> float:
    """Shannon entropy of `text`, in bits a character."""
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values()) if text else 0.0


def texts_of(value: object) -> Iterator[str]:
    """Every piece of text in a constant's value (lists and mappings searched)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from texts_of(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from texts_of(key)
            yield from texts_of(item)
