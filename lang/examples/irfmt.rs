fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    match lang::core::parse::parse_program(&text) {
        Ok(p) => print!("{}", lang::core::print::print_program(&p)),
        Err(e) => println!("error {e}"),
    }
}
