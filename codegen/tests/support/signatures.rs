//! Reading a theory's function signatures as text, shared by the differential tests and the
//! compile-time bench: which functions a theory defines, at which type, and that type with
//! its type variables instantiated.

#![allow(dead_code)] // each user takes what it needs

/// `(name, type)` of every `fun`/`primrec`/`definition`/`function` in a theory text.
pub fn signatures(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = ["fun ", "primrec ", "definition ", "function "].iter().find_map(|k| line.strip_prefix(k))
        else {
            continue;
        };
        let Some((name, ty)) = rest.split_once("::") else { continue };
        let Some(ty) = ty.trim().strip_prefix('"').and_then(|t| t.split_once('"')).map(|(t, _)| t) else { continue };
        out.push((name.trim().to_string(), ty.to_string()));
    }
    out
}

/// Replaces type variables (with their sort annotations) by `inst`.
pub fn instantiate(ty: &str, inst: &str) -> String {
    let mut out = String::new();
    let cs: Vec<char> = ty.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        if cs[i] == '\'' {
            i += 1;
            while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_') {
                i += 1;
            }
            let mut j = i;
            while j < cs.len() && cs[j] == ' ' {
                j += 1;
            }
            if j + 1 < cs.len() && cs[j] == ':' && cs[j + 1] == ':' {
                j += 2;
                while j < cs.len() && cs[j] == ' ' {
                    j += 1;
                }
                if j < cs.len() && cs[j] == '{' {
                    while j < cs.len() && cs[j] != '}' {
                        j += 1;
                    }
                    j += 1;
                } else {
                    while j < cs.len() && (cs[j].is_alphanumeric() || cs[j] == '_') {
                        j += 1;
                    }
                }
                i = j;
            }
            out.push_str(inst);
        } else {
            out.push(cs[i]);
            i += 1;
        }
    }
    out
}
