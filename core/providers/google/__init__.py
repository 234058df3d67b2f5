"""Gemini through the official google-genai SDK: the provider, its request and stream
translation, finish reasons, thought signatures, errors and defaults.

Nothing is imported here: `defaults` must load without the SDK (the command line shows them).
"""
