"""Notebooks: each chapter as a downloadable notebook, the training notebook (chapter 6), and the
engine's wheel the notebooks install.
"""
