//! Values as Python objects: canonical forms in one process-global arena.

use std::hash::{Hash, Hasher};
use std::sync::{LazyLock, Mutex};

use partizan_core::{Arena, Dyadic, GameId, ValueError};
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

/// Every value handed to Python lives here. Interned forms are never freed:
/// the arena grows with the distinct values a session has seen (searches
/// run in private arenas, so their intermediate forms do not land here).
static ARENA: LazyLock<Mutex<Arena>> = LazyLock::new(|| Mutex::new(Arena::new()));

/// Run `f` on the global arena. The GIL is released while waiting for the
/// lock and while `f` runs, and `f` never touches Python, so a thread
/// holding the lock never waits for the GIL: no deadlock between them.
pub fn with_arena<T: Send>(py: Python<'_>, f: impl FnOnce(&mut Arena) -> T + Send) -> T {
    py.detach(|| {
        let mut a = ARENA.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut a)
    })
}

/// A value error as a Python exception (`OverflowError`: outside the
/// exact range the engine represents).
pub fn value_error(e: ValueError) -> PyErr {
    PyOverflowError::new_err(e.to_string())
}

/// Move `g` of a private arena into the global one by its stable encoding.
pub fn adopt(py: Python<'_>, private: &mut Arena, g: GameId) -> PyResult<Value> {
    let bytes = private.encode(g);
    let id =
        with_arena(py, |a| a.decode(&bytes)).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Value { id })
}

/// A dyadic rational as a Python `fractions.Fraction`.
pub fn fraction(py: Python<'_>, d: Dyadic) -> PyResult<Py<PyAny>> {
    let frac = py.import("fractions")?.getattr("Fraction")?;
    let den: i64 = 1i64 << d.exp();
    Ok(frac.call1((d.num(), den))?.unbind())
}

/// A Python int or `Fraction` with a power-of-two denominator as a dyadic.
fn dyadic_of(obj: &Bound<'_, PyAny>) -> PyResult<Option<Dyadic>> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Ok(None);
    }
    if let Ok(n) = obj.extract::<i64>() {
        return Ok(Some(Dyadic::from_int(n)));
    }
    let py = obj.py();
    let frac = py.import("fractions")?.getattr("Fraction")?;
    if obj.is_instance(&frac)? {
        let num: i64 = obj
            .getattr("numerator")?
            .extract()
            .map_err(|_| PyOverflowError::new_err("numerator outside the 64-bit range"))?;
        let den: u64 = obj
            .getattr("denominator")?
            .extract()
            .map_err(|_| PyOverflowError::new_err("denominator outside the 64-bit range"))?;
        if !den.is_power_of_two() {
            return Err(PyValueError::new_err(format!(
                "{num}/{den} is not a dyadic rational: short games' numbers have power-of-two denominators"
            )));
        }
        return Dyadic::new(num, den.trailing_zeros())
            .map(Some)
            .map_err(value_error);
    }
    Ok(None)
}

/// `obj` as a value of the global arena: a `Value`, an int or a dyadic
/// `Fraction`; `None` for anything else.
pub fn coerce(obj: &Bound<'_, PyAny>) -> PyResult<Option<GameId>> {
    if let Ok(v) = obj.cast::<Value>() {
        return Ok(Some(v.get().id));
    }
    match dyadic_of(obj)? {
        Some(d) => with_arena(obj.py(), |a| a.number(d))
            .map(Some)
            .map_err(value_error),
        None => Ok(None),
    }
}

fn require(obj: &Bound<'_, PyAny>) -> PyResult<GameId> {
    coerce(obj)?.ok_or_else(|| {
        PyTypeError::new_err(format!(
            "expected a partizan Value, an int or a dyadic Fraction, got {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })
}

/// A short partizan game's canonical value. Equal values are the same
/// object inside the engine; `==` is equality of games, `<=` the CGT order
/// (a partial order: `confused` tells the fourth case), `+` the disjunctive
/// sum. Values hash and pickle by their stable encoding.
#[pyclass(frozen, module = "partizan._partizan")]
#[derive(Clone, Copy, Debug)]
pub struct Value {
    pub(crate) id: GameId,
}

impl Value {
    /// The value's id in the global arena.
    pub fn id(&self) -> GameId {
        self.id
    }
}

#[pymethods]
impl Value {
    /// Parse CGSuite notation (`"{2|0||-1}"`), or take an int or a dyadic
    /// Fraction.
    #[new]
    fn py_new(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
        if let Ok(s) = obj.extract::<String>() {
            return parse(obj.py(), &s);
        }
        require(obj).map(|id| Value { id })
    }

    /// The canonical form in CGSuite notation.
    fn __str__(&self, py: Python<'_>) -> String {
        let id = self.id;
        with_arena(py, |a| a.display(id))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("game({})", py_str_repr(&self.__str__(py)))
    }

    /// LaTeX for notebooks: braces, bars, arrows and stars as symbols.
    fn _repr_latex_(&self, py: Python<'_>) -> String {
        format!("${}$", latex(&self.__str__(py)))
    }

    fn __richcmp__(
        &self,
        other: &Bound<'_, PyAny>,
        op: CompareOp,
        py: Python<'_>,
    ) -> PyResult<Py<PyAny>> {
        let Some(b) = coerce(other)? else {
            return Ok(py.NotImplemented());
        };
        let a = self.id;
        let r = match op {
            CompareOp::Eq => a == b,
            CompareOp::Ne => a != b,
            CompareOp::Le => with_arena(py, |x| x.leq(a, b)),
            CompareOp::Lt => with_arena(py, |x| x.lt(a, b)),
            CompareOp::Ge => with_arena(py, |x| x.geq(a, b)),
            CompareOp::Gt => with_arena(py, |x| x.gt(a, b)),
        };
        Ok(pyo3::types::PyBool::new(py, r)
            .to_owned()
            .into_any()
            .unbind())
    }

    /// Hash of the stable encoding: equal values hash equal in every
    /// process.
    fn __hash__(&self, py: Python<'_>) -> u64 {
        let id = self.id;
        let bytes = with_arena(py, |a| a.encode(id));
        let mut h = rustc_hash::FxHasher::default();
        bytes.hash(&mut h);
        h.finish()
    }

    fn __add__(&self, other: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let Some(b) = coerce(other)? else {
            return Ok(py.NotImplemented());
        };
        let a = self.id;
        let id = with_arena(py, |x| x.sum(a, b)).map_err(value_error)?;
        Ok(Py::new(py, Value { id })?.into_any())
    }

    fn __radd__(&self, other: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.__add__(other, py)
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let Some(b) = coerce(other)? else {
            return Ok(py.NotImplemented());
        };
        let a = self.id;
        let id = with_arena(py, |x| x.sub(a, b)).map_err(value_error)?;
        Ok(Py::new(py, Value { id })?.into_any())
    }

    fn __rsub__(&self, other: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let Some(b) = coerce(other)? else {
            return Ok(py.NotImplemented());
        };
        let a = self.id;
        let id = with_arena(py, |x| x.sub(b, a)).map_err(value_error)?;
        Ok(Py::new(py, Value { id })?.into_any())
    }

    fn __neg__(&self, py: Python<'_>) -> Value {
        let a = self.id;
        Value {
            id: with_arena(py, |x| x.neg(a)),
        }
    }

    fn __pos__(&self) -> Value {
        *self
    }

    /// `self + self + ... ` (`n` copies; a negative `n` adds `-self`).
    fn __mul__(&self, n: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        if n.is_instance_of::<pyo3::types::PyBool>() {
            return Ok(py.NotImplemented());
        }
        let Ok(n) = n.extract::<i64>() else {
            return Ok(py.NotImplemented());
        };
        let a = self.id;
        let id = with_arena(py, |x| {
            let g = if n < 0 { x.neg(a) } else { a };
            let mut acc = x.zero();
            for _ in 0..n.unsigned_abs() {
                acc = x.sum(acc, g)?;
            }
            Ok::<GameId, ValueError>(acc)
        })
        .map_err(value_error)?;
        Ok(Py::new(py, Value { id })?.into_any())
    }

    fn __rmul__(&self, n: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.__mul__(n, py)
    }

    /// Whether `self` and `other` are confused (incomparable): `self - other`
    /// is a first-player win.
    fn confused(&self, other: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<bool> {
        let (a, b) = (self.id, require(other)?);
        Ok(with_arena(py, |x| x.confused(a, b)))
    }

    /// Outcome class under normal play: `"L"` (Left wins), `"R"`, `"N"`
    /// (first player wins) or `"P"` (second player wins).
    #[getter]
    fn outcome(&self, py: Python<'_>) -> String {
        let a = self.id;
        with_arena(py, |x| x.outcome(a).to_string())
    }

    /// Left's stop, as a `Fraction`.
    #[getter]
    fn left_stop(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let a = self.id;
        fraction(py, with_arena(py, |x| x.left_stop(a)))
    }

    /// Right's stop, as a `Fraction`.
    #[getter]
    fn right_stop(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let a = self.id;
        fraction(py, with_arena(py, |x| x.right_stop(a)))
    }

    /// The mean value (the thermograph's mast), as a `Fraction`.
    #[getter]
    fn mean(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let a = self.id;
        fraction(py, with_arena(py, |x| x.try_mean(a)).map_err(value_error)?)
    }

    /// The temperature, as a `Fraction` (`-1` for integers).
    #[getter]
    fn temperature(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let a = self.id;
        fraction(
            py,
            with_arena(py, |x| x.try_temperature(a)).map_err(value_error)?,
        )
    }

    /// Whether the value is a number.
    #[getter]
    fn is_number(&self, py: Python<'_>) -> bool {
        let a = self.id;
        with_arena(py, |x| x.is_number(a))
    }

    /// The nimber `n` when the value is `*n` (0 for zero), else `None`.
    #[getter]
    fn nimber(&self, py: Python<'_>) -> Option<u32> {
        let a = self.id;
        with_arena(py, |x| x.as_nimber(a))
    }

    /// The birthday (the canonical form's depth).
    #[getter]
    fn birthday(&self, py: Python<'_>) -> u32 {
        let a = self.id;
        with_arena(py, |x| x.birthday(a))
    }

    /// The value as a `Fraction`; `ValueError` if it is not a number.
    fn as_fraction(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let a = self.id;
        match with_arena(py, |x| x.as_number(a)) {
            Some(d) => fraction(py, d),
            None => Err(PyValueError::new_err(format!(
                "{} is not a number",
                self.__str__(py)
            ))),
        }
    }

    /// The canonical form's Left options, in notation order.
    #[getter]
    fn left_options(&self, py: Python<'_>) -> Vec<Value> {
        let a = self.id;
        with_arena(py, |x| x.sorted_left(a))
            .into_iter()
            .map(|id| Value { id })
            .collect()
    }

    /// The canonical form's Right options, in notation order.
    #[getter]
    fn right_options(&self, py: Python<'_>) -> Vec<Value> {
        let a = self.id;
        with_arena(py, |x| x.sorted_right(a))
            .into_iter()
            .map(|id| Value { id })
            .collect()
    }

    /// The thermograph as a dict: `left` and `right` walls as lists of
    /// `(temperature, value)` breakpoints from `t = -1` (linear between
    /// points, vertical above the last, which is where the mast starts),
    /// and the `mast` and `temperature`.
    fn thermograph<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let a = self.id;
        let t = with_arena(py, |x| x.thermograph(a)).map_err(value_error)?;
        let d = PyDict::new(py);
        for (name, wall) in [("left", &t.left), ("right", &t.right)] {
            let pts = PyList::empty(py);
            for s in wall.segments() {
                pts.append(PyTuple::new(
                    py,
                    [fraction(py, s.start)?, fraction(py, s.value)?],
                )?)?;
            }
            d.set_item(name, pts)?;
        }
        d.set_item("mast", fraction(py, t.mast)?)?;
        d.set_item("temperature", fraction(py, t.temperature)?)?;
        Ok(d)
    }

    /// The stable, versioned encoding (the store's value format).
    // The Python name; a by-value `self` is not possible for a pymethod.
    #[allow(clippy::wrong_self_convention)]
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let a = self.id;
        let bytes = with_arena(py, |x| x.encode(a));
        PyBytes::new(py, &bytes)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("partizan._partizan")?.getattr("from_bytes")?;
        PyTuple::new(py, [f, PyTuple::new(py, [self.to_bytes(py)])?.into_any()])
    }

    fn __copy__(&self) -> Value {
        *self
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Value {
        *self
    }
}

/// A string as Python's `repr` writes it (single quotes unless the text
/// holds one), for `__repr__` output that reads back.
pub fn py_str_repr(s: &str) -> String {
    let q = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        if c == '\\' || c == q {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(q);
    out
}

/// CGSuite notation as LaTeX.
fn latex(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 2);
    for c in s.chars() {
        match c {
            '{' => out.push_str("\\{"),
            '}' => out.push_str("\\}"),
            '|' => out.push_str("\\mid "),
            '^' => out.push_str("\\uparrow "),
            'v' => out.push_str("\\downarrow "),
            '*' => out.push_str("\\ast "),
            '±' => out.push_str("\\pm "),
            c => out.push(c),
        }
    }
    out
}

fn parse(py: Python<'_>, text: &str) -> PyResult<Value> {
    let owned = text.to_string();
    with_arena(py, |a| a.parse(&owned))
        .map(|id| Value { id })
        .map_err(|e| PyValueError::new_err(format!("bad value notation '{text}': {e}")))
}

/// The value written in CGSuite notation: `game("{2|0||-1}")`, `game("^*")`,
/// `game("3/2")`; an int or dyadic Fraction is taken as that number.
#[pyfunction]
pub fn game(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    Value::py_new(obj)
}

/// The canonical form of `{left | right}` (each an iterable of values).
#[pyfunction]
pub fn construct(left: &Bound<'_, PyAny>, right: &Bound<'_, PyAny>) -> PyResult<Value> {
    let mut ids = [Vec::new(), Vec::new()];
    for (side, it) in [left, right].into_iter().enumerate() {
        for o in it.try_iter()? {
            ids[side].push(require(&o?)?);
        }
    }
    let [l, r] = ids;
    with_arena(left.py(), |a| a.construct(&l, &r))
        .map(|id| Value { id })
        .map_err(value_error)
}

/// The nimber `*n`.
#[pyfunction]
pub fn nimber(py: Python<'_>, n: u32) -> Value {
    Value {
        id: with_arena(py, |a| a.nimber(n)),
    }
}

/// The value a stable encoding describes (`Value.to_bytes`); checked.
#[pyfunction]
pub fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<Value> {
    with_arena(py, |a| a.decode(data))
        .map(|id| Value { id })
        .map_err(|e| PyValueError::new_err(format!("bad value encoding: {e}")))
}

/// How many distinct canonical forms the process-global arena holds.
#[pyfunction]
pub fn arena_size(py: Python<'_>) -> usize {
    with_arena(py, |a| a.len())
}

#[cfg(test)]
mod tests {
    use super::{latex, py_str_repr};

    #[test]
    fn repr_quotes_like_python() {
        assert_eq!(py_str_repr("{1|-1}"), "'{1|-1}'");
        assert_eq!(py_str_repr("a'b"), "\"a'b\"");
        assert_eq!(py_str_repr("a'b\""), "'a\\'b\"'");
    }

    #[test]
    fn latex_of_notation() {
        assert_eq!(latex("{2|0||-1}"), r"\{2\mid 0\mid \mid -1\}");
        assert_eq!(latex("±1"), r"\pm 1");
        assert_eq!(latex("v*"), r"\downarrow \ast ");
    }
}
