"""Tools a maintainer runs by hand: benchmarks that print figures, and the report of
`pytest --engine`.
"""
