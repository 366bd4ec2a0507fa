//! Placeholder: the text form of the core IR.
