//! `narrowing`: will own symbolic testing with partial values refined on demand at every `case`
//! of the core IR, including existential quantifiers over infinite types.
