"""Errors cross process boundaries (``jiaokan build --jobs``) whole: class, fields, message."""

import pickle

import pytest

from jiaokan.errors import CollationError, EmendationError, InputError, JiaokanError, OutputError


@pytest.mark.parametrize("err", [
    InputError("a.txt", "expected a 卷 title", line=3, page="2a"),
    CollationError("unknown siglum XX", file="corpus.toml"),
    EmendationError("no partner"),
    OutputError("build/x.xml", "No space left on device"),
    JiaokanError(None, "bare"),
])
def test_every_error_pickles_with_its_fields(err):
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is type(err)
    assert str(back) == str(err)
    assert (back.file, back.line, back.page, back.message) == (err.file, err.line, err.page, err.message)
    assert back.exit_status == err.exit_status
