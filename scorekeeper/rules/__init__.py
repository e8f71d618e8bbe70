"""The rules engine: plain Python, no Django. Values in, values out."""
