//! Placeholder: lowering of the typed theory into the core IR.
