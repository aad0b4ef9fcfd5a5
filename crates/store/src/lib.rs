//! partizan-store
