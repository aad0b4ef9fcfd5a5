//! The stored record of one region value: where it came from, when and by
//! which build it was computed, then the value itself. On disk every record
//! is followed by its row checksum (see [`crate::checksum`]), computed over
//! the ruleset, the key and the record together.
//!
//! Record v2:
//!
//! ```text
//! byte 0        record version (2)
//! byte 1        provenance: 0 computed, 1 imported and recomputed,
//!               2 imported and not yet recomputed (unverified)
//! bytes 2..10   computed at: unix seconds, u64 little-endian
//! byte 10       length k of the partizan version string (≤ 255)
//! k bytes       the version, UTF-8 (e.g. "0.1.0")
//! rest          the value encoding (see the `encoding` module)
//! ```

use serde::{Deserialize, Serialize};

use crate::error::{Result, StoreError};

/// The version of the record layout written by this build.
pub const RECORD_VERSION: u8 = 2;

/// This build's version, recorded with every value it computes.
pub const PARTIZAN_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Where a stored value came from, and so how far it is trusted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provenance {
    /// Computed by a solver (this build or an earlier one, migrated).
    Computed = 0,
    /// Imported, then recomputed and found equal.
    Verified = 1,
    /// Imported and not yet recomputed: never answered from; `store verify`
    /// recomputes it.
    Unverified = 2,
}

impl Provenance {
    /// Is a value of this provenance answered from?
    pub fn trusted(self) -> bool {
        self != Provenance::Unverified
    }

    fn from_byte(b: u8) -> Option<Provenance> {
        match b {
            0 => Some(Provenance::Computed),
            1 => Some(Provenance::Verified),
            2 => Some(Provenance::Unverified),
            _ => None,
        }
    }
}

/// A decoded record, borrowing the stored bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record<'a> {
    /// Where the value came from.
    pub provenance: Provenance,
    /// Unix seconds at which the value was computed.
    pub computed_at: u64,
    /// The partizan version that computed it.
    pub version: &'a str,
    /// The value, in the value encoding.
    #[serde(skip)]
    pub value: &'a [u8],
}

impl<'a> Record<'a> {
    /// A freshly computed value's record, stamped now with this build.
    pub fn computed(value: &'a [u8]) -> Record<'a> {
        Record {
            provenance: Provenance::Computed,
            computed_at: unix_now(),
            version: PARTIZAN_VERSION,
            value,
        }
    }

    /// Lay the record out in bytes (without the row checksum, which the
    /// database layer adds).
    pub fn encode(&self) -> Vec<u8> {
        let v = self.version.as_bytes();
        let v = &v[..v.len().min(255)];
        let mut out = Vec::with_capacity(11 + v.len() + self.value.len());
        out.push(RECORD_VERSION);
        out.push(self.provenance as u8);
        out.extend_from_slice(&self.computed_at.to_le_bytes());
        out.push(v.len() as u8);
        out.extend_from_slice(v);
        out.extend_from_slice(self.value);
        out
    }

    /// Read a record from its bytes (the value part is not decoded here).
    pub fn decode(bytes: &'a [u8]) -> Result<Record<'a>> {
        let bad = |m: &str| StoreError::BadValue(format!("record: {m}"));
        match bytes.first() {
            None => return Err(bad("empty")),
            Some(&RECORD_VERSION) => {}
            Some(v) => return Err(bad(&format!("record v{v} is not v{RECORD_VERSION}"))),
        }
        if bytes.len() < 11 {
            return Err(bad("too short"));
        }
        let provenance =
            Provenance::from_byte(bytes[1]).ok_or_else(|| bad("unknown provenance"))?;
        let mut at = [0u8; 8];
        at.copy_from_slice(&bytes[2..10]);
        let k = bytes[10] as usize;
        if bytes.len() < 11 + k {
            return Err(bad("version string cut short"));
        }
        let version = std::str::from_utf8(&bytes[11..11 + k])
            .map_err(|_| bad("version string is not UTF-8"))?;
        Ok(Record {
            provenance,
            computed_at: u64::from_le_bytes(at),
            version,
            value: &bytes[11 + k..],
        })
    }
}

/// Seconds since the Unix epoch, now (0 if the clock is before 1970).
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_record() {
        let r = Record {
            provenance: Provenance::Unverified,
            computed_at: 0x0102,
            version: "0.1.0",
            value: &[1, 1, 1, 1],
        };
        let b = r.encode();
        assert_eq!(
            b,
            vec![2, 2, 2, 1, 0, 0, 0, 0, 0, 0, 5, b'0', b'.', b'1', b'.', b'0', 1, 1, 1, 1]
        );
        assert_eq!(Record::decode(&b).unwrap(), r);
    }

    #[test]
    fn bad_records() {
        assert!(Record::decode(&[]).is_err());
        assert!(Record::decode(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(Record::decode(&[2, 0, 0]).is_err());
        assert!(Record::decode(&[2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(Record::decode(&[2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, b'a']).is_err());
        assert!(Record::decode(&[2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff]).is_err());
    }
}
