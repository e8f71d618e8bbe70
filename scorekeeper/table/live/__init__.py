"""The live channel: every phone at the table follows a save on another phone within a second.

A watching phone holds one connection open: ``static/live.js`` opens the game's stream of
server-sent events (``views.game_events``, Django's own async view), which says only "the game
changed" — the validator of the live part this phone should now hold (``answers.etag``: the game's
version, its table's names, the phone's role, the language). When it differs from the one the page
shows, the page fetches its live part (``If-None-Match``, through the ordinary game view, which
checks the phone's access on every fetch and answers a bodiless 304 when nothing changed) and
swaps it in. The stream checks the phone's access as it opens (and so on every reconnect, which
``EventSource`` makes by itself after a drop); a phone taken off the table is told at once
(``gone``) and the page reloads to say why. A process holds a few streams for one phone and a few
hundred for one address (``hub.PHONE_STREAMS``, ``hub.ADDRESS_STREAMS``); one more is answered 429,
and that page polls instead.

- ``signals``: what every write that changes a game page calls, inside its transaction: a game
  changed (its version bumped), a table's names changed, a phone's access changed. On PostgreSQL
  a ``NOTIFY`` (delivered on commit to every app process); on SQLite nothing.
- ``hub``: each app process's watching phones and the news that reaches them — one LISTEN
  connection on PostgreSQL, one cheap check every ``hub.CHECK_SECONDS`` on SQLite — with no
  broker of our own: several app processes, one database.
- ``answers``: the live part's validator and its 304.
- ``views``: the stream.

A browser without ``EventSource``, or served by a WSGI server (``make dev``'s runserver, where the
stream answers 204), polls the live part every ``answers.POLL_SECONDS``; without JavaScript a
reload shows the latest. The figures (``python -m benchmarks live``) are in benchmarks/README.md.
"""
