"""Data in and out of programs: DataFrames, catalog tables and files."""
