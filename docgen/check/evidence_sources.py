"""What every kind's probe evidence shares in check: the fingerprints of the cited source when probe ran,
compared with the source now."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Protocol

from docgen.core.findings import Finding, Kind


class ProbedEvidence(Protocol):
    """Evidence written by probe: where it is, when it was taken, and the source fingerprints it cites."""

    @property
    def file(self) -> str: ...
    @property
    def probed(self) -> str: ...
    @property
    def source(self) -> Mapping[str, str]: ...
    def line(self, *path: str | int) -> int | None: ...


def stale_sources(evidence: ProbedEvidence, current: Mapping[str, str], probe: str) -> Iterator[Finding]:
    """An `evidence-stale` finding for each cited symbol whose fingerprint changed since probe ran (or that
    appeared or disappeared), at its line in the evidence file."""
    for key in sorted(set(current) | set(evidence.source)):
        if evidence.source.get(key) != current.get(key):
            yield Finding(
                Kind.EVIDENCE_STALE,
                evidence.file,
                evidence.line("source", key),
                key,
                f"changed after probe ran on {evidence.probed}; the evidence may no longer hold",
                f"run `{probe}` again and commit the evidence",
                old=evidence.source.get(key),
                new=current.get(key),
            )
