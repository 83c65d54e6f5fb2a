"""The one bilingual field of the modules' data files: a name or a text in English and
Spanish (``name.en`` and ``name.es`` in TOML)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Words(BaseModel):
    """A name or a text in English and Spanish."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    en: str = Field(min_length=1)
    es: str = Field(min_length=1)

    def get(self, lang: str) -> str:
        return self.es if lang == "es" else self.en
