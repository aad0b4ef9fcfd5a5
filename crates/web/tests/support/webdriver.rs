//! A minimal W3C WebDriver client for headless Chromium: start
//! `chromedriver` on a loopback port, open a session with a fresh profile,
//! navigate, find and click elements, run a script, take a screenshot.

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};

use super::request;

const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Find an executable on PATH (or at `$var` if set).
pub fn find_executable(var: &str, names: &[&str]) -> Option<PathBuf> {
    if let Ok(p) = std::env::var(var) {
        let p = PathBuf::from(p);
        if p.is_file() {
            return Some(p);
        }
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// A running chromedriver with one browser session. Ends both when dropped.
pub struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
    profile: PathBuf,
}

impl Browser {
    /// Start chromedriver and a headless Chromium session, or `Err` with the
    /// reason they are not available (the caller skips).
    pub fn start() -> Result<Browser, String> {
        let driver_bin = find_executable("CHROMEDRIVER", &["chromedriver"])
            .ok_or("chromedriver not found on PATH (apt-get install chromium chromium-driver)")?;
        let chrome_bin =
            find_executable("CHROME", &["chromium", "chromium-browser", "google-chrome"])
                .ok_or("chromium not found on PATH (apt-get install chromium chromium-driver)")?;
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let driver = Command::new(&driver_bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", driver_bin.display()))?;
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let profile = std::env::temp_dir().join(format!(
            "partizan-web-chrome-{}-{}",
            std::process::id(),
            port
        ));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).map_err(|e| e.to_string())?;
        let mut b = Browser {
            driver,
            addr,
            session: String::new(),
            profile,
        };
        let start = Instant::now();
        loop {
            if let Ok(r) = request(addr, "GET", "/status", None, Duration::from_secs(2)) {
                if r.status == 200 {
                    break;
                }
            }
            if start.elapsed() > Duration::from_secs(20) {
                return Err("chromedriver did not come up within 20 s".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({
            "capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": chrome_bin.to_string_lossy(),
                    "args": [
                        "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-background-networking", "--disable-component-update",
                        "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                        "--window-size=1280,1000",
                        format!("--user-data-dir={}", b.profile.display()),
                    ]
                }
            }}
        });
        let v = b.call("POST", "/session", Some(caps))?;
        b.session = v["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no session id in {v}"))?
            .to_string();
        Ok(b)
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let text = body.map(|b| b.to_string());
        let r = request(
            self.addr,
            method,
            path,
            text.as_deref()
                .or(if method == "POST" { Some("{}") } else { None }),
            Duration::from_secs(60),
        )
        .map_err(|e| format!("{method} {path}: {e}"))?;
        let v: Value = serde_json::from_slice(&r.body)
            .map_err(|e| format!("{method} {path}: bad JSON ({e}): {}", r.text()))?;
        if r.status != 200 {
            return Err(format!("{method} {path}: {} {}", r.status, v));
        }
        Ok(v["value"].clone())
    }

    fn s(&self, rest: &str) -> String {
        format!("/session/{}{}", self.session, rest)
    }

    /// Open an address.
    pub fn goto(&self, url: &str) -> Result<(), String> {
        self.call("POST", &self.s("/url"), Some(json!({ "url": url })))
            .map(|_| ())
    }

    /// The current address.
    pub fn current_url(&self) -> Result<String, String> {
        let v = self.call("GET", &self.s("/url"), None)?;
        Ok(v.as_str().unwrap_or_default().to_string())
    }

    /// The first element matching a CSS selector.
    pub fn find(&self, css: &str) -> Result<String, String> {
        let v = self.call(
            "POST",
            &self.s("/element"),
            Some(json!({"using": "css selector", "value": css})),
        )?;
        v[ELEMENT_KEY]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("no element id for {css}: {v}"))
    }

    /// Every element matching a CSS selector.
    pub fn find_all(&self, css: &str) -> Result<Vec<String>, String> {
        let v = self.call(
            "POST",
            &self.s("/elements"),
            Some(json!({"using": "css selector", "value": css})),
        )?;
        Ok(v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|e| e[ELEMENT_KEY].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default())
    }

    /// Click an element.
    pub fn click(&self, element: &str) -> Result<(), String> {
        self.call("POST", &self.s(&format!("/element/{element}/click")), None)
            .map(|_| ())
    }

    /// The visible text of an element.
    pub fn text(&self, element: &str) -> Result<String, String> {
        let v = self.call("GET", &self.s(&format!("/element/{element}/text")), None)?;
        Ok(v.as_str().unwrap_or_default().to_string())
    }

    /// An attribute of an element.
    pub fn attribute(&self, element: &str, name: &str) -> Result<Option<String>, String> {
        let v = self.call(
            "GET",
            &self.s(&format!("/element/{element}/attribute/{name}")),
            None,
        )?;
        Ok(v.as_str().map(str::to_string))
    }

    /// Run a script in the page and answer its return value.
    pub fn execute(&self, script: &str) -> Result<Value, String> {
        self.call(
            "POST",
            &self.s("/execute/sync"),
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Wait until a script returns true (polling), or fail after `timeout`.
    pub fn wait_for(&self, script: &str, timeout: Duration) -> Result<(), String> {
        let start = Instant::now();
        loop {
            if self.execute(script)? == Value::Bool(true) {
                return Ok(());
            }
            if start.elapsed() > timeout {
                return Err(format!("timed out waiting for: {script}"));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Resize the window (the viewport follows).
    pub fn set_window_size(&self, width: u32, height: u32) -> Result<(), String> {
        self.call(
            "POST",
            &self.s("/window/rect"),
            Some(json!({"width": width, "height": height})),
        )
        .map(|_| ())
    }

    /// A PNG screenshot of the viewport.
    pub fn screenshot(&self) -> Result<Vec<u8>, String> {
        let v = self.call("GET", &self.s("/screenshot"), None)?;
        base64::engine::general_purpose::STANDARD
            .decode(v.as_str().unwrap_or_default())
            .map_err(|e| e.to_string())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = request(
                self.addr,
                "DELETE",
                &format!("/session/{}", self.session),
                None,
                Duration::from_secs(10),
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
