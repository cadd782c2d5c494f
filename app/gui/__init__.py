"""The Qt front end: the only package that imports PySide6."""
