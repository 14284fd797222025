"""The version of this build of brrr: a wheel replaces this file with the
version its brrrc prints (`brrrc --version`); a source checkout says only
the release."""

__version__ = "0.1.0"
