"""The PostgreSQL store (asyncpg): ``PostgresStore`` in store.py; ``local_server`` starts a
throwaway server for the tests and the bench."""
