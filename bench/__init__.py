"""Benchmarks of the referee bot: engine speed, referee throughput and latency on SQLite, restart,
memory and disk, and Discord calls per move. Run ``python -m bench`` (or ``make bench``).

These are measurements, not tests: nothing here fails because something is slow. The printed
table shows each figure beside its target; the JSON file keeps every run.
"""
