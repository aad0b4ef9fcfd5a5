//! partizan-census
