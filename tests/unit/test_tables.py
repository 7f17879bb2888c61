"""Printing matrices as the lesson does."""
import numpy as np
import pytest

from compute.present.tables import fmt, matrix_html


@pytest.mark.parametrize("x, text", [(0.125, "0.12"), (-0.004, "-0.004"), (-0.0, "0.00"), (-0.006, "-0.006"), (-0.008, "-0.01"),
                                     (float("-inf"), "−∞"), (3.14159, "3.14")])
def test_fmt(x, text):
    assert fmt(x) == text


def test_matrix_html_labels_rows_and_columns():
    out = matrix_html(np.array([[1.0, -2.5]]), ["0 the"], ["a", "b"], caption="cap", corner="c", name="Q")
    assert '<th scope="row">0 the</th><td>1.00</td><td>-2.50</td>' in out
    assert "<caption>cap</caption>" in out and 'data-matrix="Q"' in out


def test_matrix_html_rejects_mismatched_labels():
    with pytest.raises(ValueError, match="is \\(1, 2\\), labels are 2x2"):
        matrix_html(np.zeros((1, 2)), ["a", "b"], ["x", "y"])


def test_a_nan_cell_says_what_it_means_or_stops_the_table():
    """No table prints "nan": a NaN cell prints what the table says it means, or is an error naming the cell."""
    import numpy as np
    import pytest
    from compute.present.tables import matrix_html, rows_html
    M = np.array([[1.0, np.nan], [0.5, 0.25]])
    with pytest.raises(ValueError, match=r"table 's': cell \(b, y\) is NaN"):
        matrix_html(M[::-1], ["a", "b"], ["x", "y"], name="s")
    shown = matrix_html(M, ["a", "b"], ["x", "y"], name="s", missing="overflow")
    assert '<td class="missing">overflow</td>' in shown and "nan" not in shown
    with pytest.raises(ValueError, match="a cell is NaN"):
        rows_html(["row", "p"], [["a", float("nan")]], caption="c")
