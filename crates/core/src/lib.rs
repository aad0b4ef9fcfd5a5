//! partizan-core
