"""The example requests of an errors catalog's notes, as probe sends them and pages show them.

Owns: an entry's example worked out into the exact request, written as HTTP and curl (`requests`), and the
call each official client makes to send the same request (`client_calls`); a routes catalog's example, a
request to one of the application's operations (`routes`). probe sends them, render shows
them, check compares the evidence recorded for them.

May import: `docgen.core`, `docgen.templating`.
"""
