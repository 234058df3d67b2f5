"""OpenAI and OpenAI-compatible servers (Ollama, vLLM, llama.cpp server, LM Studio, OpenRouter)
through the official SDK: the provider, its request and stream translation, errors and defaults.

Nothing is imported here: `defaults` must load without the SDK (the command line shows them).
"""
