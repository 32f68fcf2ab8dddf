"""What every test module shares: polyscope's global state is let go between modules."""

import pytest

from polyscope_state import release_polyscope


@pytest.fixture(autouse=True, scope="module")
def polyscope_released():
    """After each module, polyscope's callback, handles and structures let go
    (``release_polyscope``)."""
    yield
    release_polyscope()
