//! An HTTP/1.1 server on raw sockets (127.0.0.1, port 0) for tests that must see exactly the
//! bytes a client sent, or answer what an HTTP library would not.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};

/// Every request a [`raw_upstream`] received, as the bytes that arrived: its head up to the
/// blank line and the body of its `Content-Length`.
pub type Received = Arc<Mutex<Vec<Vec<u8>>>>;

/// A server that reads each request (head, then a body of its `Content-Length`), keeps its
/// bytes, writes `answer(request line)` and closes the connection. Its base URL and what it
/// received.
pub fn raw_upstream(answer: impl Fn(&str) -> Vec<u8> + Send + 'static) -> (String, Received) {
    let received: Received = Arc::default();
    let keep = received.clone();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut s) = conn else { continue };
            let mut bytes = Vec::new();
            let mut byte = [0u8; 1];
            while !bytes.ends_with(b"\r\n\r\n") && s.read(&mut byte).unwrap_or(0) == 1 {
                bytes.push(byte[0]);
            }
            let head = String::from_utf8_lossy(&bytes).into_owned();
            let length = content_length(&head).unwrap_or(0);
            let mut body = vec![0u8; length];
            let _ = s.read_exact(&mut body);
            bytes.extend_from_slice(&body);
            keep.lock().unwrap().push(bytes);
            let line = head.lines().next().unwrap_or("");
            let _ = s.write_all(&answer(line));
        }
    });
    (url, received)
}

/// The `Content-Length` a message head declares, if any.
pub fn content_length(head: &str) -> Option<usize> {
    head.lines().find_map(|l| {
        l.to_ascii_lowercase()
            .strip_prefix("content-length:")
            .map(|v| v.trim().parse().unwrap())
    })
}

/// An HTTP/1.1 answer: the status line's rest (`200 OK`) and `body` with its length.
pub fn raw_answer(status: &str, body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A server that reads each request's head only, writes `answer` at once and closes the
/// connection, its body unread: as a server refusing a body it will not read (413) does. Its
/// base URL.
pub fn refusing_upstream(answer: Vec<u8>) -> String {
    refusing_after(0, answer)
}

/// [`refusing_upstream`] that reads `body_bytes` of each body (or all there is, when less)
/// before it answers and closes, the rest unread. Its base URL.
pub fn refusing_after(body_bytes: usize, answer: Vec<u8>) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut s) = conn else { continue };
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && s.read(&mut byte).unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            let mut read = 0;
            let mut buf = vec![0u8; 256 * 1024];
            while read < body_bytes {
                let want = buf.len().min(body_bytes - read);
                match s.read(&mut buf[..want]) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => read += n,
                }
            }
            let _ = s.write_all(&answer);
        }
    });
    url
}

/// The local server's answer to a body over its limit, as it words it.
pub fn payload_too_large() -> Vec<u8> {
    raw_answer(
        "413 Payload Too Large\r\nContent-Type: application/json",
        "{\"status\":413,\"code\":\"PAYLOAD_TOO_LARGE\",\"message\":\"the body is larger than 1048576 bytes\"}",
    )
}

/// A server that reads a request's head and holds the answer: it says on the first receiver
/// that a request arrived, then reads until the client closes the connection and says on the
/// second how many body bytes it read (a client that gives up closes it; one that waits never
/// does). Its base URL.
pub fn holding_upstream() -> (
    String,
    std::sync::mpsc::Receiver<()>,
    std::sync::mpsc::Receiver<usize>,
) {
    holding(None)
}

/// As [`holding_upstream`], but it reads nothing of a body until the test says so on the
/// returned sender (once per request): a large body's writes block in the client, as against a
/// server that stalls, and what the client did meanwhile (went on writing, or closed) shows when
/// the server reads.
pub fn stalling_upstream() -> (
    String,
    std::sync::mpsc::Receiver<()>,
    std::sync::mpsc::Sender<()>,
    std::sync::mpsc::Receiver<usize>,
) {
    let (read_tx, read_rx) = std::sync::mpsc::channel();
    let (url, arrived, closed) = holding(Some(read_rx));
    (url, arrived, read_tx, closed)
}

fn holding(
    gate: Option<std::sync::mpsc::Receiver<()>>,
) -> (
    String,
    std::sync::mpsc::Receiver<()>,
    std::sync::mpsc::Receiver<usize>,
) {
    let (arrived_tx, arrived) = std::sync::mpsc::channel();
    let (closed_tx, closed) = std::sync::mpsc::channel();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let gate = gate.map(|g| Arc::new(Mutex::new(g)));
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut s) = conn else { continue };
            let (arrived_tx, closed_tx, gate) =
                (arrived_tx.clone(), closed_tx.clone(), gate.clone());
            std::thread::spawn(move || {
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && s.read(&mut byte).unwrap_or(0) == 1 {
                    head.push(byte[0]);
                }
                let _ = arrived_tx.send(());
                if let Some(gate) = gate {
                    let _ = gate.lock().unwrap().recv();
                }
                // The body, then nothing more until the client closes: 0 bytes read (or an
                // error) is the connection closed.
                let (mut buf, mut read) = ([0u8; 4096], 0);
                loop {
                    match s.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => read += n,
                    }
                }
                let _ = closed_tx.send(read);
            });
        }
    });
    (url, arrived, closed)
}
