//! Run the site without the command line: `cargo run -p partizan-web
//! --example serve -- [--port N] [--store PATH]`.

use std::net::SocketAddr;

fn main() {
    let mut config = partizan_web::Config::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--port" => {
                let port = args.next().and_then(|p| p.parse().ok()).unwrap_or(0);
                config.addr = SocketAddr::from(([127, 0, 0, 1], port));
            }
            "--store" => {
                let path = std::path::PathBuf::from(args.next().unwrap_or_default());
                match partizan_store::Store::open(&path) {
                    Ok(s) => config.store = Some(s),
                    Err(e) => {
                        eprintln!("error: cannot open the store: {e}");
                        std::process::exit(2);
                    }
                }
            }
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    if let Err(e) = partizan_web::run(config, |addr| println!("partizan site: http://{addr}/")) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
