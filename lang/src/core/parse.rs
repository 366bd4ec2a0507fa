//! Placeholder: reading the text form of the core IR.
