//! The stored record of one region value: when and by which build it was
//! computed, then the value itself.
//!
//! Record v1:
//!
//! ```text
//! byte 0        record version (1)
//! bytes 1..9    computed at: unix seconds, u64 little-endian
//! byte 9        length k of the partizan version string (≤ 255)
//! k bytes       the version, UTF-8 (e.g. "0.1.0")
//! rest          the value encoding (see the `encoding` module)
//! ```

use serde::Serialize;

use crate::error::{Result, StoreError};

/// The version of the record layout written by this build.
pub const RECORD_VERSION: u8 = 1;

/// This build's version, recorded with every value it computes.
pub const PARTIZAN_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A decoded record, borrowing the stored bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record<'a> {
    /// Unix seconds at which the value was computed.
    pub computed_at: u64,
    /// The partizan version that computed it.
    pub version: &'a str,
    /// The value, in the value encoding.
    #[serde(skip)]
    pub value: &'a [u8],
}

impl<'a> Record<'a> {
    /// Lay the record out in bytes.
    pub fn encode(&self) -> Vec<u8> {
        let v = self.version.as_bytes();
        let v = &v[..v.len().min(255)];
        let mut out = Vec::with_capacity(10 + v.len() + self.value.len());
        out.push(RECORD_VERSION);
        out.extend_from_slice(&self.computed_at.to_le_bytes());
        out.push(v.len() as u8);
        out.extend_from_slice(v);
        out.extend_from_slice(self.value);
        out
    }

    /// Read a record from stored bytes (the value part is not decoded here).
    pub fn decode(bytes: &'a [u8]) -> Result<Record<'a>> {
        let bad = |m: &str| StoreError::BadValue(format!("record: {m}"));
        match bytes.first() {
            None => return Err(bad("empty")),
            Some(&RECORD_VERSION) => {}
            Some(v) => return Err(bad(&format!("record v{v} is not v{RECORD_VERSION}"))),
        }
        if bytes.len() < 10 {
            return Err(bad("too short"));
        }
        let mut at = [0u8; 8];
        at.copy_from_slice(&bytes[1..9]);
        let k = bytes[9] as usize;
        if bytes.len() < 10 + k {
            return Err(bad("version string cut short"));
        }
        let version = std::str::from_utf8(&bytes[10..10 + k])
            .map_err(|_| bad("version string is not UTF-8"))?;
        Ok(Record {
            computed_at: u64::from_le_bytes(at),
            version,
            value: &bytes[10 + k..],
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
            computed_at: 0x0102,
            version: "0.1.0",
            value: &[1, 1, 1, 1],
        };
        let b = r.encode();
        assert_eq!(
            b,
            vec![1, 2, 1, 0, 0, 0, 0, 0, 0, 5, b'0', b'.', b'1', b'.', b'0', 1, 1, 1, 1]
        );
        assert_eq!(Record::decode(&b).unwrap(), r);
    }

    #[test]
    fn bad_records() {
        assert!(Record::decode(&[]).is_err());
        assert!(Record::decode(&[2, 0, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(Record::decode(&[1, 0, 0]).is_err());
        assert!(Record::decode(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 3, b'a']).is_err());
        assert!(Record::decode(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff]).is_err());
    }
}
