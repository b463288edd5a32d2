"""A chapter's Markdown into its parts, at build time: its examples (Sybil), directives (figures,
quizzes, widgets, exercises), the blocks Run exports, the prose numbers' sources, math, copy.
"""
