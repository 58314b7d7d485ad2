"""treeval"""
from ._native import __version__
