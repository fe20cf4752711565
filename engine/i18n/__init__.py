"""The bot in the reader's language: catalogues, the current language, and formats (Babel).

See translate.py for how a message is written and translated, languages.py for the languages
and how a locale tag finds one, formats.py for numbers, lists, days and durations.
"""

from .formats import day, duration, full_day, join_and, join_or, moment, number, ordinal, signed
from .languages import (
    CODES,
    LANGUAGE_VARIABLES,
    LANGUAGES,
    SOURCE,
    Language,
    language_name,
    language_or_source,
    resolve_language,
    terminal_language,
)
from .translate import (
    CATALOGS,
    N_,
    catalog_path,
    language,
    reset_language,
    set_language,
    tr,
    tr_ctx,
    tr_ctx_n,
    tr_n,
    use_language,
)

__all__ = [
    "CATALOGS",
    "CODES",
    "LANGUAGES",
    "LANGUAGE_VARIABLES",
    "N_",
    "SOURCE",
    "Language",
    "catalog_path",
    "day",
    "duration",
    "full_day",
    "join_and",
    "join_or",
    "language",
    "language_name",
    "language_or_source",
    "moment",
    "number",
    "ordinal",
    "reset_language",
    "resolve_language",
    "set_language",
    "signed",
    "terminal_language",
    "tr",
    "tr_ctx",
    "tr_ctx_n",
    "tr_n",
    "use_language",
]
