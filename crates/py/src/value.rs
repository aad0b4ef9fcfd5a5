//! Values as Python objects: canonical forms in one process-global arena.
//!
//! Every [`Value`] carries its own stable encoding beside its id in the
//! global arena, so the arena can be emptied ([`clear_cache`]) while
//! values are alive: a value whose id belongs to an earlier generation of
//! the arena re-interns itself from its encoding the next time it is used.

use std::convert::Infallible;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

use partizan_core::{Arena, Dyadic, GameId, OpError, ValueError};
use partizan_report::picture;
use partizan_report::ValueSummary;
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

pyo3::create_exception!(
    _partizan,
    NotAtomicError,
    PyValueError,
    "The atomic weight is undefined: the game is not infinitesimal, or is infinitesimal but not atomic."
);

/// Every value handed to Python lives here, until [`clear_cache`] empties
/// it (searches run in private arenas, so their intermediate forms never
/// land here).
static ARENA: LazyLock<Mutex<Arena>> = LazyLock::new(|| Mutex::new(Arena::new()));

/// The arena's generation: bumped (with the lock held) by every
/// [`clear_cache`], so ids from before it are recognised as stale.
static GENERATION: AtomicU64 = AtomicU64::new(0);

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

/// A toolkit error as a Python exception: `NotAtomicError` (a
/// `ValueError`) when the atomic weight is undefined, `ValueError` for a
/// cooling temperature at or below -1, `OverflowError` for arithmetic.
fn op_error(e: OpError) -> PyErr {
    match e {
        OpError::NotInfinitesimal(..) | OpError::NotAtomic(_) => {
            NotAtomicError::new_err(e.to_string())
        }
        OpError::CoolingTemperature(_) => PyValueError::new_err(e.to_string()),
        OpError::Value(v) => value_error(v),
    }
}

/// Move `g` of a private arena into the global one by its stable encoding.
pub fn adopt(py: Python<'_>, private: &mut Arena, g: GameId) -> PyResult<Value> {
    let bytes = private.encode(g);
    from_bytes(py, &bytes)
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

/// A number as a dyadic (an int, a dyadic `Fraction`, or a string such
/// as `"1/2"`), or a `TypeError` naming what was expected.
fn require_dyadic(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Dyadic> {
    if let Ok(text) = obj.extract::<String>() {
        return text.trim().parse::<Dyadic>().map_err(|e| {
            PyValueError::new_err(format!(
                "{what} must be a dyadic number such as '1' or '-1/2', not '{text}': {e}"
            ))
        });
    }
    dyadic_of(obj)?.ok_or_else(|| {
        PyTypeError::new_err(format!(
            "{what} must be an int, a dyadic Fraction or a string such as '1/2', got {}",
            type_name(obj)
        ))
    })
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// A Python argument taken as a game: a `Value` or a number, resolved to
/// an id inside the arena's lock.
pub enum Operand {
    /// A value (resolved by [`Value::id_in`]).
    Value(Value),
    /// An int or dyadic `Fraction`.
    Number(Dyadic),
}

impl Operand {
    /// The operand's id in the global arena.
    pub fn id_in(&self, a: &mut Arena) -> Result<GameId, ValueError> {
        match self {
            Operand::Value(v) => Ok(v.id_in(a)),
            Operand::Number(d) => a.number(*d),
        }
    }
}

/// `obj` as a game: a `Value`, an int, a dyadic `Fraction`, or a string
/// in CGSuite notation (`up + "1/2"`; a string that does not parse is a
/// `ValueError`); `None` for anything else.
pub fn coerce(obj: &Bound<'_, PyAny>) -> PyResult<Option<Operand>> {
    if let Ok(v) = obj.cast::<Value>() {
        return Ok(Some(Operand::Value(v.get().clone())));
    }
    if let Ok(text) = obj.extract::<String>() {
        return parse(obj.py(), &text).map(|v| Some(Operand::Value(v)));
    }
    Ok(dyadic_of(obj)?.map(Operand::Number))
}

fn require(obj: &Bound<'_, PyAny>) -> PyResult<Operand> {
    coerce(obj)?.ok_or_else(|| {
        PyTypeError::new_err(format!(
            "expected a partizan Value, an int, a dyadic Fraction or a string in CGSuite notation, got {}",
            type_name(obj)
        ))
    })
}

/// A short partizan game's canonical value. Equal values are the same
/// object inside the engine; `==` is equality of games, `<=` the CGT order
/// (a partial order: `confused` tells the fourth case), `+` the disjunctive
/// sum. Values hash and pickle by their stable encoding, which each value
/// carries (so `clear_cache()` never invalidates one).
#[pyclass(frozen, module = "partizan._partizan")]
#[derive(Debug)]
pub struct Value {
    /// The stable encoding (`Arena::encode`).
    enc: Arc<[u8]>,
    /// The arena generation `index` belongs to (written after `index`,
    /// read before it; both only change with the arena's lock held).
    generation: AtomicU64,
    /// The value's id in that generation of the arena.
    index: AtomicU32,
}

impl Clone for Value {
    fn clone(&self) -> Value {
        let generation = self.generation.load(Ordering::Acquire);
        Value {
            enc: Arc::clone(&self.enc),
            generation: AtomicU64::new(generation),
            index: AtomicU32::new(self.index.load(Ordering::Relaxed)),
        }
    }
}

impl Value {
    /// The value of `id` in the global arena `a` (call with its lock held,
    /// that is inside [`with_arena`]).
    pub fn new_in(a: &mut Arena, id: GameId) -> Value {
        Value {
            enc: a.encode(id).into(),
            generation: AtomicU64::new(GENERATION.load(Ordering::Acquire)),
            index: AtomicU32::new(id.index()),
        }
    }

    /// The value's id in the global arena `a` (call inside [`with_arena`]):
    /// the remembered one if it belongs to the arena's current generation,
    /// else the encoding interned afresh.
    pub fn id_in(&self, a: &mut Arena) -> GameId {
        let generation = GENERATION.load(Ordering::Acquire);
        if self.generation.load(Ordering::Acquire) == generation {
            if let Some(id) = a.id_at(self.index.load(Ordering::Relaxed)) {
                return id;
            }
        }
        // The encoding was written by this build from a valid form, so it
        // decodes; were it ever not to, zero would be a wrong answer, so
        // fail loudly instead (a panic becomes a Python exception).
        let id = match a.decode(&self.enc) {
            Ok(id) => id,
            Err(e) => panic!("a value's own encoding failed to decode: {e}"),
        };
        self.index.store(id.index(), Ordering::Relaxed);
        self.generation.store(generation, Ordering::Release);
        id
    }

    /// The stable encoding.
    pub fn encoding(&self) -> &[u8] {
        &self.enc
    }
}

/// Run `f` on the global arena with `v` resolved to its id.
fn on<T: Send>(py: Python<'_>, v: &Value, f: impl FnOnce(&mut Arena, GameId) -> T + Send) -> T {
    with_arena(py, |a| {
        let id = v.id_in(a);
        f(a, id)
    })
}

/// Run `f` on `v`'s id and wrap the game it makes as a `Value`.
fn make<E: Send>(
    py: Python<'_>,
    v: &Value,
    f: impl FnOnce(&mut Arena, GameId) -> Result<GameId, E> + Send,
) -> Result<Value, E> {
    on(py, v, |a, id| f(a, id).map(|g| Value::new_in(a, g)))
}

/// Run `f` on the ids of `v` and `other` and wrap the result.
fn make2(
    py: Python<'_>,
    v: &Value,
    other: &Operand,
    f: impl FnOnce(&mut Arena, GameId, GameId) -> Result<GameId, ValueError> + Send,
) -> PyResult<Value> {
    on(py, v, |a, id| {
        let b = other.id_in(a)?;
        f(a, id, b).map(|g| Value::new_in(a, g))
    })
    .map_err(value_error)
}

/// A list of ids of the global arena as values (inside the lock).
fn values_in(a: &mut Arena, ids: Vec<GameId>) -> Vec<Value> {
    ids.into_iter().map(|g| Value::new_in(a, g)).collect()
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
        match require(obj)? {
            Operand::Value(v) => Ok(v),
            Operand::Number(d) => with_arena(obj.py(), |a| {
                let g = a.number(d)?;
                Ok(Value::new_in(a, g))
            })
            .map_err(value_error),
        }
    }

    /// The canonical form in CGSuite notation.
    fn __str__(&self, py: Python<'_>) -> String {
        on(py, self, |a, id| a.display(id))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("game({})", py_str_repr(&self.__str__(py)))
    }

    /// The canonical form in LaTeX math notation (`\{2 \mid 0\}`,
    /// `\uparrow`, `\ast 2`, `\pm 1`, ...), without the dollar signs.
    fn latex(&self, py: Python<'_>) -> String {
        on(py, self, |a, id| a.display_latex(id))
    }

    /// LaTeX for notebooks: `latex()` in math mode.
    fn _repr_latex_(&self, py: Python<'_>) -> String {
        format!("${}$", self.latex(py))
    }

    fn __richcmp__(
        &self,
        other: &Bound<'_, PyAny>,
        op: CompareOp,
        py: Python<'_>,
    ) -> PyResult<Py<PyAny>> {
        // A string that is not notation is simply not equal (no error from
        // `==`); an ordering against it is Python's TypeError.
        let b = match coerce(other) {
            Ok(Some(b)) => b,
            Ok(None) => return Ok(py.NotImplemented()),
            Err(_) if other.is_instance_of::<pyo3::types::PyString>() => {
                return Ok(py.NotImplemented())
            }
            Err(e) => return Err(e),
        };
        let r = on(py, self, |x, a| {
            let b = b.id_in(x)?;
            Ok::<bool, ValueError>(match op {
                CompareOp::Eq => a == b,
                CompareOp::Ne => a != b,
                CompareOp::Le => x.leq(a, b),
                CompareOp::Lt => x.lt(a, b),
                CompareOp::Ge => x.geq(a, b),
                CompareOp::Gt => x.gt(a, b),
            })
        })
        .map_err(value_error)?;
        Ok(pyo3::types::PyBool::new(py, r)
            .to_owned()
            .into_any()
            .unbind())
    }

    /// Hash of the stable encoding: equal values hash equal in every
    /// process.
    fn __hash__(&self) -> u64 {
        let mut h = rustc_hash::FxHasher::default();
        self.enc.hash(&mut h);
        h.finish()
    }

    fn __add__(&self, other: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let Some(b) = coerce(other)? else {
            return Ok(py.NotImplemented());
        };
        let v = make2(py, self, &b, |x, a, b| x.sum(a, b))?;
        Ok(Py::new(py, v)?.into_any())
    }

    fn __radd__(&self, other: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.__add__(other, py)
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let Some(b) = coerce(other)? else {
            return Ok(py.NotImplemented());
        };
        let v = make2(py, self, &b, |x, a, b| x.sub(a, b))?;
        Ok(Py::new(py, v)?.into_any())
    }

    fn __rsub__(&self, other: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let Some(b) = coerce(other)? else {
            return Ok(py.NotImplemented());
        };
        let v = make2(py, self, &b, |x, a, b| x.sub(b, a))?;
        Ok(Py::new(py, v)?.into_any())
    }

    fn __neg__(&self, py: Python<'_>) -> Value {
        let r: Result<Value, Infallible> = make(py, self, |x, a| Ok(x.neg(a)));
        match r {
            Ok(v) => v,
            Err(e) => match e {},
        }
    }

    fn __pos__(&self) -> Value {
        self.clone()
    }

    /// `self + self + ... ` (`n` copies; a negative `n` adds `-self`).
    fn __mul__(&self, n: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        if n.is_instance_of::<pyo3::types::PyBool>() {
            return Ok(py.NotImplemented());
        }
        let Ok(n) = n.extract::<i64>() else {
            return Ok(py.NotImplemented());
        };
        let v = make(py, self, |x, a| {
            let g = if n < 0 { x.neg(a) } else { a };
            let mut acc = x.zero();
            for _ in 0..n.unsigned_abs() {
                acc = x.sum(acc, g)?;
            }
            Ok::<GameId, ValueError>(acc)
        })
        .map_err(value_error)?;
        Ok(Py::new(py, v)?.into_any())
    }

    fn __rmul__(&self, n: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.__mul__(n, py)
    }

    /// Whether `self` and `other` are confused (incomparable): `self - other`
    /// is a first-player win.
    fn confused(&self, other: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<bool> {
        let b = require(other)?;
        on(py, self, |x, a| {
            let b = b.id_in(x)?;
            Ok(x.confused(a, b))
        })
        .map_err(value_error)
    }

    /// How `self` compares with `other` in the CGT order: `"<"`, `"="`,
    /// `">"`, or `"||"` when they are confused.
    fn compare(&self, other: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<&'static str> {
        let b = require(other)?;
        on(py, self, |x, a| {
            let b = b.id_in(x)?;
            Ok(x.compare(a, b).symbol())
        })
        .map_err(value_error)
    }

    /// Outcome class under normal play: `"L"` (Left wins), `"R"`, `"N"`
    /// (first player wins) or `"P"` (second player wins).
    #[getter]
    fn outcome(&self, py: Python<'_>) -> String {
        on(py, self, |x, a| x.outcome(a).to_string())
    }

    /// Left's stop, as a `Fraction`.
    #[getter]
    fn left_stop(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        fraction(py, on(py, self, |x, a| x.left_stop(a)))
    }

    /// Right's stop, as a `Fraction`.
    #[getter]
    fn right_stop(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        fraction(py, on(py, self, |x, a| x.right_stop(a)))
    }

    /// The mean value (the thermograph's mast), as a `Fraction`.
    #[getter]
    fn mean(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        fraction(py, on(py, self, |x, a| x.try_mean(a)).map_err(value_error)?)
    }

    /// The temperature, as a `Fraction` (`-1` for integers).
    #[getter]
    fn temperature(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        fraction(
            py,
            on(py, self, |x, a| x.try_temperature(a)).map_err(value_error)?,
        )
    }

    /// Whether the value is a number.
    #[getter]
    fn is_number(&self, py: Python<'_>) -> bool {
        on(py, self, |x, a| x.is_number(a))
    }

    /// Whether the value is infinitesimal (both stops zero).
    #[getter]
    fn is_infinitesimal(&self, py: Python<'_>) -> bool {
        on(py, self, |x, a| x.is_infinitesimal(a))
    }

    /// Whether the value is all-small (no subposition of the canonical
    /// form is a non-zero number).
    #[getter]
    fn is_all_small(&self, py: Python<'_>) -> bool {
        on(py, self, |x, a| x.is_all_small(a))
    }

    /// The nimber `n` when the value is `*n` (0 for zero), else `None`.
    #[getter]
    fn nimber(&self, py: Python<'_>) -> Option<u32> {
        on(py, self, |x, a| x.as_nimber(a))
    }

    /// The birthday (the canonical form's depth).
    #[getter]
    fn birthday(&self, py: Python<'_>) -> u32 {
        on(py, self, |x, a| x.birthday(a))
    }

    /// The value as a `Fraction`; `ValueError` if it is not a number.
    fn as_fraction(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match on(py, self, |x, a| x.as_number(a)) {
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
        on(py, self, |x, a| {
            let ids = x.sorted_left(a);
            values_in(x, ids)
        })
    }

    /// The canonical form's Right options, in notation order.
    #[getter]
    fn right_options(&self, py: Python<'_>) -> Vec<Value> {
        on(py, self, |x, a| {
            let ids = x.sorted_right(a);
            values_in(x, ids)
        })
    }

    /// The canonical form's options for `player` (`"left"` or `"right"`).
    fn options(&self, player: &str, py: Python<'_>) -> PyResult<Vec<Value>> {
        match player.trim().to_ascii_lowercase().as_str() {
            "l" | "left" => Ok(self.left_options(py)),
            "r" | "right" => Ok(self.right_options(py)),
            _ => Err(PyValueError::new_err(format!(
                "unknown player '{player}' (expected 'left' or 'right')"
            ))),
        }
    }

    /// The thermograph as a dict: `left` and `right` walls as lists of
    /// `(temperature, value)` breakpoints (exact Fractions) from `t = -1`
    /// (linear between points, vertical above the last, which is where the
    /// mast starts), the `mast` and `temperature`, and `cgsuite`, the
    /// thermograph as CGSuite prints it.
    fn thermograph<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let t = on(py, self, |x, a| x.thermograph(a)).map_err(value_error)?;
        let d = PyDict::new(py);
        for (name, wall) in [("left", &t.left), ("right", &t.right)] {
            let pts = PyList::empty(py);
            for (temp, value) in wall.points() {
                pts.append(PyTuple::new(
                    py,
                    [fraction(py, temp)?, fraction(py, value)?],
                )?)?;
            }
            d.set_item(name, pts)?;
        }
        d.set_item("mast", fraction(py, t.mast)?)?;
        d.set_item("temperature", fraction(py, t.temperature)?)?;
        d.set_item("cgsuite", t.cgsuite())?;
        // The dict that notebooks draw (`_repr_svg_`): the picture the
        // command line's `analyse --thermograph --format svg` draws.
        let title = self.__str__(py);
        let title = if title.chars().count() <= 60 {
            title
        } else {
            String::new()
        };
        let (svg, _) = picture::thermograph(&t, "thermograph", &title, 420.0);
        let class = py.import("partizan.display")?.getattr("Thermograph")?;
        class.call1((d, svg))
    }

    /// HTML for notebooks: the value with its outcome, stops, mean and
    /// temperature beside a small thermograph.
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let (text, facts, th) = on(py, self, |x, a| {
            let facts = ValueSummary::of(x, a);
            let shown = if facts.size.characters <= 300 {
                facts.value.clone()
            } else {
                let mut cut: String = facts.value.chars().take(300).collect();
                cut.push('…');
                cut
            };
            (shown, facts, x.thermograph(a))
        });
        let th = th.map_err(value_error)?;
        let (svg, _) = picture::thermograph(&th, "thermograph", "", 240.0);
        Ok(value_html(&text, &facts, &svg))
    }

    /// The atomic weight (CGSuite's `AtomicWeight`), as a value: 0 for
    /// nimbers, `k` for `k.^ + *m`. Raises `NotAtomicError` (a
    /// `ValueError`) when it is undefined: the value is not infinitesimal,
    /// or is infinitesimal but not atomic.
    fn atomic_weight(&self, py: Python<'_>) -> PyResult<Value> {
        make(py, self, |x, a| x.atomic_weight(a)).map_err(op_error)
    }

    /// Whether the atomic weight is defined.
    fn is_atomic(&self, py: Python<'_>) -> PyResult<bool> {
        on(py, self, |x, a| x.is_atomic(a)).map_err(value_error)
    }

    /// The reduced canonical form: equal to the value modulo
    /// infinitesimals (`x + k.^ + *m` reduces to `x`).
    fn reduced(&self, py: Python<'_>) -> PyResult<Value> {
        make(py, self, |x, a| x.reduced(a)).map_err(value_error)
    }

    /// The infinitesimal part: the value minus its reduced form.
    fn infinitesimal_part(&self, py: Python<'_>) -> PyResult<Value> {
        make(py, self, |x, a| x.infinitesimal_part(a)).map_err(value_error)
    }

    /// The value cooled by `t` (a number above -1; CGSuite's `Cool`):
    /// integers stay, a value colder than `t` becomes its mean, otherwise
    /// `{G^L_t - t | G^R_t + t}`.
    fn cool(&self, t: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Value> {
        let t = require_dyadic(t, "the cooling temperature")?;
        make(py, self, |x, a| x.cool(a, t)).map_err(op_error)
    }

    /// The value heated by `t` (any game; CGSuite's `Heat`): numbers
    /// stay, otherwise `{∫G^L + t | ∫G^R - t}`.
    fn heat(&self, t: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Value> {
        let t = require(t)?;
        make2(py, self, &t, |x, a, t| x.heat(a, t))
    }

    /// The value overheated from `s` by `t` (CGSuite's `Overheat`): an
    /// integer `n` becomes `n . s`, otherwise `{∫G^L + t | ∫G^R - t}`.
    fn overheat(
        &self,
        s: &Bound<'_, PyAny>,
        t: &Bound<'_, PyAny>,
        py: Python<'_>,
    ) -> PyResult<Value> {
        let (s, t) = (require(s)?, require(t)?);
        on(py, self, |x, a| {
            let (s, t) = (s.id_in(x)?, t.id_in(x)?);
            let g = x.overheat(a, s, t)?;
            Ok(Value::new_in(x, g))
        })
        .map_err(value_error)
    }

    /// The value frozen: cooled by its own temperature (numbers stay).
    fn freeze(&self, py: Python<'_>) -> PyResult<Value> {
        make(py, self, |x, a| x.freeze(a)).map_err(op_error)
    }

    /// Left's incentives `G^L - G` (dominated ones removed).
    fn left_incentives(&self, py: Python<'_>) -> PyResult<Vec<Value>> {
        on(py, self, |x, a| {
            let inc = x.incentives(a)?;
            Ok(values_in(x, inc.left))
        })
        .map_err(value_error)
    }

    /// Right's incentives `G - G^R` (dominated ones removed).
    fn right_incentives(&self, py: Python<'_>) -> PyResult<Vec<Value>> {
        on(py, self, |x, a| {
            let inc = x.incentives(a)?;
            Ok(values_in(x, inc.right))
        })
        .map_err(value_error)
    }

    /// Both players' incentives pooled, dominated ones removed (CGSuite's
    /// `Incentives`).
    fn incentives(&self, py: Python<'_>) -> PyResult<Vec<Value>> {
        on(py, self, |x, a| {
            let all = x.all_incentives(a)?;
            Ok(values_in(x, all))
        })
        .map_err(value_error)
    }

    /// The ordinal sum `self : other` (`other` played on top of `self`).
    fn ordinal_sum(&self, other: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Value> {
        let b = require(other)?;
        make2(py, self, &b, |x, a, b| x.ordinal_sum(a, b))
    }

    /// Norton's product `self . u` (`self` copies of `u` for an integer).
    fn norton(&self, u: &Bound<'_, PyAny>, py: Python<'_>) -> PyResult<Value> {
        let u = require(u)?;
        make2(py, self, &u, |x, a, u| x.norton_product(a, u))
    }

    /// The stable, versioned encoding (the store's value format).
    // The Python name; a by-value `self` is not possible for a pymethod.
    #[allow(clippy::wrong_self_convention)]
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.enc)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("partizan._partizan")?.getattr("from_bytes")?;
        PyTuple::new(py, [f, PyTuple::new(py, [self.to_bytes(py)])?.into_any()])
    }

    fn __copy__(&self) -> Value {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Value {
        self.clone()
    }
}

/// The notebook HTML of a value: its (possibly shortened) notation, its
/// facts and its thermograph picture.
fn value_html(text: &str, f: &ValueSummary, svg: &str) -> String {
    let outcome = match f.outcome.as_str() {
        "L" => "L: Left wins",
        "R" => "R: Right wins",
        "N" => "N: the first player wins",
        "P" => "P: the second player wins",
        other => other,
    };
    let row = |k: &str, v: &str| {
        format!(
            "<tr><th style=\"text-align:left;padding-right:1em\">{k}</th><td><code>{}</code></td></tr>",
            picture::escape(v)
        )
    };
    format!(
        "<div class=\"partizan-value\" style=\"display:flex;gap:1.5em;align-items:flex-start;flex-wrap:wrap\">\
<div><p><code>{}</code></p><table>{}{}{}{}{}</table></div><div>{svg}</div></div>",
        picture::escape(text),
        row("outcome", outcome),
        row("stops", &format!("{} / {}", f.left_stop, f.right_stop)),
        row("mean", &f.mean),
        row("temperature", &f.temperature),
        row(
            "size",
            &format!(
                "birthday {}, {} subpositions",
                f.size.birthday, f.size.subpositions
            )
        ),
    )
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

fn parse(py: Python<'_>, text: &str) -> PyResult<Value> {
    let owned = text.to_string();
    with_arena(py, |a| a.parse(&owned).map(|g| Value::new_in(a, g)))
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
    let mut ops: [Vec<Operand>; 2] = [Vec::new(), Vec::new()];
    for (side, it) in [left, right].into_iter().enumerate() {
        for o in it.try_iter()? {
            ops[side].push(require(&o?)?);
        }
    }
    with_arena(left.py(), |a| {
        let l = ops[0]
            .iter()
            .map(|o| o.id_in(a))
            .collect::<Result<Vec<_>, _>>()?;
        let r = ops[1]
            .iter()
            .map(|o| o.id_in(a))
            .collect::<Result<Vec<_>, _>>()?;
        let g = a.construct(&l, &r)?;
        Ok(Value::new_in(a, g))
    })
    .map_err(value_error)
}

/// The nimber `*n`.
#[pyfunction]
pub fn nimber(py: Python<'_>, n: u32) -> Value {
    with_arena(py, |a| {
        let g = a.nimber(n);
        Value::new_in(a, g)
    })
}

/// The value a stable encoding describes (`Value.to_bytes`); checked.
#[pyfunction]
pub fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<Value> {
    with_arena(py, |a| a.decode(data).map(|g| Value::new_in(a, g)))
        .map_err(|e| PyValueError::new_err(format!("bad value encoding: {e}")))
}

/// How many distinct canonical forms the process-global arena holds.
#[pyfunction]
pub fn arena_size(py: Python<'_>) -> usize {
    with_arena(py, |a| a.len())
}

/// The process-global arena: `forms` (distinct canonical forms held) and
/// `generation` (how many times `clear_cache()` emptied it).
#[pyfunction]
pub fn arena_stats(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let (forms, generation) = with_arena(py, |a| (a.len(), GENERATION.load(Ordering::Acquire)));
    let d = PyDict::new(py);
    d.set_item("forms", forms)?;
    d.set_item("generation", generation)?;
    Ok(d)
}

/// Empty the process-global arena (and its sum and comparison caches),
/// returning how many forms it held. Safe while values are alive: each
/// value keeps its stable encoding and re-interns itself on its next use.
/// The arena never shrinks on its own; call this to bound a long session.
#[pyfunction]
pub fn clear_cache(py: Python<'_>) -> usize {
    with_arena(py, |a| {
        let n = a.len();
        *a = Arena::new();
        GENERATION.fetch_add(1, Ordering::AcqRel);
        n
    })
}

#[cfg(test)]
mod tests {
    use super::py_str_repr;

    #[test]
    fn repr_quotes_like_python() {
        assert_eq!(py_str_repr("{1|-1}"), "'{1|-1}'");
        assert_eq!(py_str_repr("a'b"), "\"a'b\"");
        assert_eq!(py_str_repr("a'b\""), "'a\\'b\"'");
    }
}
