//! Placeholder: types and inference.
