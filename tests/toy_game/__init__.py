"""A test-only toy game (issue 35 §5): two cards, two seats, one decision each. It follows
docs/architecture.md "Adding a game" and lives only in this folder: the engine (engine.py, pure Python),
its Django-side definition (definition.py), registered by conftest.py for the tests that ask for it."""
