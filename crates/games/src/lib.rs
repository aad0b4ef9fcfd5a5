//! partizan-games
