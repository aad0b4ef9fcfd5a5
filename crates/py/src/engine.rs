//! Games defined in Python: a ruleset object gives the options of a
//! position for each player (hashable positions), and optionally the
//! independent components a position falls into; the engine values
//! positions with memoisation, calling back into Python for the options.
//!
//! With a store, the values of the positions asked for and of every
//! component are kept in the persistent store the command line uses, in
//! its checksummed `census` table, under
//! `python/NAME/VERSION/HEX(KEY)`: the ruleset's `name` and the user's
//! `version` string (change it when the rules change), and the position's
//! own stable encoding `key(position)` (bytes). A stored entry is believed
//! only if its checksum holds, it names the same ruleset, version and
//! position, and its value decodes under the store's bounds; otherwise it
//! is recomputed (and the fresh value replaces a damaged row).

use partizan_core::{Arena, GameId};
use partizan_store::{decode_value, encode_value, keys::to_hex, PARTIZAN_VERSION};
use pyo3::exceptions::{PyRecursionError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::PyTraverseError;
use serde_json::json;

use crate::tables::Store;
use crate::value::{adopt, value_error, Value};

/// The `kind` of a stored Python-ruleset value.
const STORED_KIND: &str = "python-value";

/// Longest position key stored (longer positions are valued, not stored).
pub const MAX_KEY_BYTES: usize = 4096;

/// A ruleset's `name` and `version` as the store's key prefix, checked:
/// a name of lowercase letters, digits, `-`, `_` and `.`, a version of
/// printable ASCII without `/` or spaces, each 1 to 64 characters.
fn store_prefix(rules: &Bound<'_, PyAny>) -> PyResult<String> {
    let get = |attr: &str| -> PyResult<String> {
        let v = rules.getattr(attr).ok().filter(|v| !v.is_none());
        let Some(v) = v else {
            return Err(PyValueError::new_err(format!(
                "a ruleset valued with a store needs a '{attr}' string (class attribute)"
            )));
        };
        v.extract::<String>()
            .map_err(|_| PyTypeError::new_err(format!("the ruleset's '{attr}' must be a str")))
    };
    let (name, version) = (get("name")?, get("version")?);
    let name_ok = (1..=64).contains(&name.len())
        && name.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_' || b == b'.'
        });
    if !name_ok {
        return Err(PyValueError::new_err(format!(
            "ruleset name '{name}' must be 1 to 64 of a-z, 0-9, '-', '_', '.'"
        )));
    }
    let version_ok = (1..=64).contains(&version.len())
        && version.bytes().all(|b| b.is_ascii_graphic() && b != b'/');
    if !version_ok {
        return Err(PyValueError::new_err(format!(
            "ruleset version '{version}' must be 1 to 64 printable characters without '/' or spaces"
        )));
    }
    Ok(format!("python/{name}/{version}/"))
}

/// An open store for one `value` call: the handle, the key prefix and the
/// values computed so far that are still to be written.
struct StoreRun {
    store: partizan_store::Store,
    prefix: String,
    pending: Vec<(String, serde_json::Value)>,
    /// Keys already in `pending` or read from the store in this call.
    seen: rustc_hash::FxHashSet<String>,
}

/// Deepest line of play the engine follows before it gives up with
/// `RecursionError` (a game that is not short, or a cycle of positions).
pub const MAX_DEPTH: usize = 2_000;

/// How many positions between two looks for Ctrl-C.
const SIGNAL_EVERY: u64 = 1024;

/// The valuation engine behind `partizan.Ruleset`: a private arena, the
/// memo table (a dict from position to value), and counts. One engine per
/// ruleset object; the memo lives as long as it does.
#[pyclass(module = "partizan._partizan")]
pub struct Engine {
    /// The user's ruleset object (`None` once the garbage collector has
    /// cleared the engine to break the ruleset -> engine -> ruleset cycle).
    rules: Option<Py<PyAny>>,
    components: bool,
    arena: Arena,
    memo: Py<PyDict>,
    nodes: u64,
    hits: u64,
    searched: u64,
    store_hits: u64,
    store_added: u64,
    store_rejected: u64,
    /// The store of the `value` call running, if it was given one.
    run: Option<StoreRun>,
}

impl Engine {
    /// The store key of `pos` (`None`: longer than [`MAX_KEY_BYTES`]).
    fn store_key(
        &self,
        rules: &Bound<'_, PyAny>,
        pos: &Bound<'_, PyAny>,
    ) -> PyResult<Option<String>> {
        let Some(run) = &self.run else {
            return Ok(None);
        };
        let key = rules.call_method1("key", (pos,))?;
        let key: Vec<u8> = key
            .extract()
            .map_err(|_| PyTypeError::new_err("the ruleset's key(position) must return bytes"))?;
        Ok((key.len() <= MAX_KEY_BYTES).then(|| format!("{}{}", run.prefix, to_hex(&key))))
    }

    /// The stored value under `key`, if one is there and passes every
    /// check (a failing one is counted in `store_rejected` and ignored).
    fn stored(&mut self, py: Python<'_>, key: &str) -> PyResult<Option<GameId>> {
        let Some(run) = &self.run else {
            return Ok(None);
        };
        let store = run.store.clone();
        let k = key.to_string();
        let got = py.detach(move || store.get_census(&k));
        let entry = match got {
            Ok(Some(e)) => e,
            Ok(None) => return Ok(None),
            // A row failing its checksum: never a value; recomputed.
            Err(partizan_store::StoreError::Checksum { .. }) => {
                self.store_rejected += 1;
                return Ok(None);
            }
            Err(e) => return Err(PyRuntimeError::new_err(format!("store: {e}"))),
        };
        let same = entry["kind"] == STORED_KIND && entry["key"] == key;
        let decoded = entry["value"]
            .as_str()
            .and_then(partizan_store::keys::from_hex)
            .and_then(|b| decode_value(&mut self.arena, &b).ok());
        match decoded {
            Some(g) if same => {
                self.store_hits += 1;
                Ok(Some(g))
            }
            _ => {
                self.store_rejected += 1;
                Ok(None)
            }
        }
    }

    /// Remember `g` as the value of `key`, to be written at the end of the
    /// `value` call.
    fn keep(&mut self, key: String, g: GameId) {
        let fresh = self
            .run
            .as_mut()
            .is_some_and(|run| run.seen.insert(key.clone()));
        if !fresh {
            return;
        }
        let value = to_hex(&encode_value(&mut self.arena, g));
        let text = self.arena.display_short(g);
        if let Some(run) = self.run.as_mut() {
            run.pending.push((
                key.clone(),
                json!({
                    "kind": STORED_KIND,
                    "key": key,
                    "value": value,
                    "text": text,
                    "partizan": PARTIZAN_VERSION,
                }),
            ));
        }
    }

    /// Write the kept values (entries already stored are left alone, a
    /// damaged one is replaced).
    fn flush(&mut self, py: Python<'_>) -> PyResult<()> {
        let Some(run) = self.run.as_mut() else {
            return Ok(());
        };
        let pending = std::mem::take(&mut run.pending);
        let store = run.store.clone();
        let added = py.detach(move || {
            let mut added = 0u64;
            for (k, v) in &pending {
                if store.insert_census(k, v)? {
                    added += 1;
                }
            }
            Ok::<u64, partizan_store::StoreError>(added)
        });
        self.store_added += added.map_err(|e| PyRuntimeError::new_err(format!("store: {e}")))?;
        Ok(())
    }

    /// Value `pos`, through the store when `stored` (the root of a call
    /// and every component).
    fn eval_stored(
        &mut self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        depth: usize,
    ) -> PyResult<GameId> {
        if self.run.is_none() {
            return self.eval(py, pos, depth);
        }
        let rules = self.rules(py)?;
        let Some(key) = self.store_key(&rules, pos)? else {
            return self.eval(py, pos, depth);
        };
        if self.memo.bind(py).contains(pos)? {
            // Known in memory (perhaps as a subposition): still a component
            // worth storing under its own key.
            let g = self.eval(py, pos, depth)?;
            self.keep(key, g);
            return Ok(g);
        }
        if let Some(g) = self.stored(py, &key)? {
            if let Some(run) = self.run.as_mut() {
                run.seen.insert(key);
            }
            self.nodes += 1;
            self.memo.bind(py).set_item(pos, g.index())?;
            return Ok(g);
        }
        let g = self.eval(py, pos, depth)?;
        self.keep(key, g);
        Ok(g)
    }

    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self
            .rules
            .as_ref()
            .ok_or_else(|| PyRuntimeError::new_err("this engine's ruleset was released"))?
            .bind(py)
            .clone())
    }

    fn eval(&mut self, py: Python<'_>, pos: &Bound<'_, PyAny>, depth: usize) -> PyResult<GameId> {
        self.nodes += 1;
        let memo = self.memo.bind(py).clone();
        if let Some(v) = memo.get_item(pos)? {
            self.hits += 1;
            let i: u32 = v.extract()?;
            return self
                .arena
                .id_at(i)
                .ok_or_else(|| PyTypeError::new_err("corrupt memo entry"));
        }
        if depth > MAX_DEPTH {
            return Err(PyRecursionError::new_err(format!(
                "play went {MAX_DEPTH} moves deep: is the game short (no cycles, finitely many moves)?"
            )));
        }
        if self.nodes % SIGNAL_EVERY == 0 {
            py.check_signals()?;
        }
        let rules = self.rules(py)?;
        let mut g = None;
        if self.components {
            let parts = rules.call_method1("components", (pos,))?;
            if !parts.is_none() {
                let parts: Vec<Bound<'_, PyAny>> = parts.try_iter()?.collect::<PyResult<_>>()?;
                let whole = parts.len() == 1 && parts[0].eq(pos)?;
                if !whole {
                    let mut total = self.arena.zero();
                    for p in &parts {
                        let v = self.eval_stored(py, p, depth + 1)?;
                        total = self.arena.sum(total, v).map_err(value_error)?;
                    }
                    g = Some(total);
                }
            }
        }
        let g = match g {
            Some(g) => g,
            None => {
                self.searched += 1;
                let mut sides = [Vec::new(), Vec::new()];
                for (side, name) in ["left_options", "right_options"].into_iter().enumerate() {
                    let opts = rules.call_method1(name, (pos,))?;
                    for o in opts.try_iter()? {
                        let v = self.eval(py, &o?, depth + 1)?;
                        sides[side].push(v);
                    }
                }
                self.arena
                    .construct(&sides[0], &sides[1])
                    .map_err(value_error)?
            }
        };
        memo.set_item(pos, g.index())?;
        Ok(g)
    }
}

#[pymethods]
impl Engine {
    /// An engine for `rules`, an object with `left_options(position)` and
    /// `right_options(position)` methods (and `components(position)` when
    /// `components` is true).
    #[new]
    #[pyo3(signature = (rules, components=false))]
    fn py_new(py: Python<'_>, rules: Py<PyAny>, components: bool) -> Engine {
        Engine {
            rules: Some(rules),
            components,
            arena: Arena::new(),
            memo: PyDict::new(py).unbind(),
            nodes: 0,
            hits: 0,
            searched: 0,
            store_hits: 0,
            store_added: 0,
            store_rejected: 0,
            run: None,
        }
    }

    /// The canonical value of `position`; with `store`, read from and
    /// added to the persistent store (the ruleset must then have `name`
    /// and `version` strings and a `key(position)` method giving bytes).
    #[pyo3(signature = (position, store=None))]
    fn value(
        &mut self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        store: Option<PyRef<'_, Store>>,
    ) -> PyResult<Value> {
        let Some(store) = store else {
            let g = self.eval(py, position, 0)?;
            return adopt(py, &mut self.arena, g);
        };
        let prefix = store_prefix(&self.rules(py)?)?;
        let store: &Store = &store;
        let handle = py.detach(|| store.handle())?;
        self.run = Some(StoreRun {
            store: handle,
            prefix,
            pending: Vec::new(),
            seen: Default::default(),
        });
        let out = self.eval_stored(py, position, 0);
        // What was computed before an error (Ctrl-C) is right: keep it.
        let flushed = self.flush(py);
        self.run = None;
        let g = out?;
        flushed?;
        adopt(py, &mut self.arena, g)
    }

    /// Counts so far: `nodes` (evaluations asked for), `hits` (answered by
    /// the memo), `searched` (positions whose options were generated),
    /// `memo` (positions remembered), `forms` (canonical forms interned),
    /// `store_hits` (values read from the store), `store_added` (values
    /// written to it), `store_rejected` (stored entries that failed a
    /// check and were recomputed).
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("nodes", self.nodes)?;
        d.set_item("hits", self.hits)?;
        d.set_item("searched", self.searched)?;
        d.set_item("memo", self.memo.bind(py).len())?;
        d.set_item("forms", self.arena.len())?;
        d.set_item("store_hits", self.store_hits)?;
        d.set_item("store_added", self.store_added)?;
        d.set_item("store_rejected", self.store_rejected)?;
        Ok(d)
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.rules)?;
        visit.call(&self.memo)?;
        Ok(())
    }

    fn __clear__(&mut self) {
        self.rules = None;
    }

    /// Forget every remembered position (and the private arena).
    fn clear(&mut self, py: Python<'_>) {
        self.arena = Arena::new();
        self.memo = PyDict::new(py).unbind();
        self.nodes = 0;
        self.hits = 0;
        self.searched = 0;
        self.store_hits = 0;
        self.store_added = 0;
        self.store_rejected = 0;
    }
}
