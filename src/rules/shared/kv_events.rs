//! `sglang/srt/disaggregation/kv_events.py`: `KVEventsConfig.from_cli` (pydantic's
//! `model_validate_json`) and `resolve_load_pub_range`, the load-publisher port range with its
//! tcp:// endpoint parsers over `utils/network.py`'s `NetworkAddress.parse`.

use super::envs::python_int;
use crate::pydantic_json::{self, JsonScan, LineError};
use crate::pyvalue::{str_repr, PyValue};

/// The fields of a parsed `--kv-events-config` that SGLang's start-up checks read.
pub struct KvEventsConfig {
    pub publisher: String,
    pub endpoint: String,
    pub replay_endpoint: Option<String>,
}

/// What `KVEventsConfig.from_cli(text)` gives.
pub enum FromCli {
    Ok(KvEventsConfig),
    /// `str()` of the `ValidationError` it raises.
    Err(String),
    /// Not reproduced here (a value whose lax conversion is not modelled, a JSON shape whose
    /// error position is not).
    Unknown,
}

/// `KVEventsConfig`'s fields in declaration order (the order of pydantic's errors).
const FIELDS: [&str; 9] = ["publisher", "endpoint", "bind", "replay_endpoint", "buffer_steps", "hwm", "max_queue_size", "topic", "format"];

/// `KVEventsConfig.from_cli(text)`.
pub fn from_cli(text: &str) -> FromCli {
    const TITLE: &str = "KVEventsConfig";
    match pydantic_json::scan(text) {
        JsonScan::Valid => {}
        JsonScan::Invalid(description) => return FromCli::Err(pydantic_json::validation_error(TITLE, &[pydantic_json::json_invalid(text, &description)])),
        JsonScan::Unknown => return FromCli::Unknown,
    }
    // jiter's value as Python sees it (json.loads agrees with it on the texts jiter accepts
    // here: NaN / Infinity, big ints, the last of repeated keys)
    let Ok(value) = crate::pyjson::loads(text) else { return FromCli::Unknown };
    let error = |loc: Option<&str>, msg: &str, kind: &'static str, v: &PyValue| LineError {
        loc: loc.map(str::to_string),
        msg: msg.to_string(),
        kind,
        input_repr: v.repr(),
        input_type: v.type_name(),
    };
    let PyValue::Dict(items) = &value else {
        return FromCli::Err(pydantic_json::validation_error(TITLE, &[error(None, "Input should be an object", "model_type", &value)]));
    };
    let get = |name: &str| items.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v);
    let mut errors = Vec::new();
    for name in FIELDS {
        let Some(v) = get(name) else { continue };
        let ok = match (name, v) {
            ("publisher" | "endpoint" | "topic", PyValue::Str(_)) => true,
            ("replay_endpoint", PyValue::Str(_) | PyValue::None) => true,
            ("publisher" | "endpoint" | "topic" | "replay_endpoint", _) => false,
            ("bind", PyValue::Bool(_) | PyValue::None) => true,
            ("buffer_steps" | "hwm" | "max_queue_size", PyValue::Int(_) | PyValue::BigInt(_)) => true,
            ("format", PyValue::Str(s)) if s == "default" || s == "dynamo" => true,
            ("format", PyValue::Str(_) | PyValue::Int(_)) => false,
            // pydantic's lax conversions (a bool from "yes" or 1, an int from "12" or 2.0):
            // not modelled
            _ => return FromCli::Unknown,
        };
        if ok {
            continue;
        }
        errors.push(if name == "format" {
            error(Some(name), "Input should be 'default' or 'dynamo'", "literal_error", v)
        } else {
            error(Some(name), "Input should be a valid string", "string_type", v)
        });
    }
    if !errors.is_empty() {
        return FromCli::Err(pydantic_json::validation_error(TITLE, &errors));
    }
    let text_of = |name: &str| match get(name) {
        Some(PyValue::Str(s)) => Some(s.clone()),
        _ => None,
    };
    FromCli::Ok(KvEventsConfig {
        publisher: text_of("publisher").unwrap_or_else(|| "null".into()),
        endpoint: text_of("endpoint").unwrap_or_else(|| "tcp://*:5557".into()),
        replay_endpoint: text_of("replay_endpoint"),
    })
}

/// What `resolve_load_pub_range` decides.
pub enum LoadPubRange {
    /// A range (or publishing off without a reason).
    Fine,
    /// The `reason` it returns.
    Reason(String),
    /// Text whose parse is not reproduced here (non-ASCII or control characters, which
    /// Python's `int` and `ipaddress` read their own way).
    Unknown,
}

/// `resolve_load_pub_range(kv_endpoint=..., replay_endpoint=..., dp_size=..., load_publish_endpoint=...)`.
pub fn resolve_load_pub_range(kv_endpoint: Option<&str>, replay_endpoint: Option<&str>, dp_size: i64, load_publish_endpoint: &str) -> LoadPubRange {
    let plain = |s: &str| s.bytes().all(|b| (0x20..0x7f).contains(&b));
    if ![kv_endpoint, replay_endpoint, Some(load_publish_endpoint)].into_iter().flatten().all(plain) {
        return LoadPubRange::Unknown;
    }
    let mode = load_publish_endpoint.trim_matches(' ');
    if dp_size < 1 || mode.is_empty() || mode.eq_ignore_ascii_case("off") {
        return LoadPubRange::Fine;
    }
    let mut base;
    if mode.eq_ignore_ascii_case("auto") {
        let Some((_, kv_base)) = parse_bindable_tcp(kv_endpoint) else {
            let why = match kv_endpoint {
                None => "--kv-events-config is not set".to_string(),
                Some(e) => format!("{} is not one", str_repr(e)),
            };
            return LoadPubRange::Reason(format!("--load-publish-endpoint=auto needs a bindable wildcard-host tcp:// --kv-events-config endpoint to pack after; {why}"));
        };
        base = kv_base + dp_size;
        if let Some(replay_base) = parse_tcp_port(replay_endpoint) {
            if base < replay_base + dp_size && replay_base < base + dp_size {
                base = replay_base + dp_size;
            }
        }
    } else {
        if parse_tcp_port(kv_endpoint).is_none() {
            let absent = match kv_endpoint {
                None => "without --kv-events-config".to_string(),
                Some(e) => format!("for endpoint {}", str_repr(e)),
            };
            return LoadPubRange::Reason(format!(
                "--load-publish-endpoint={} needs a routable tcp:// --kv-events-config endpoint: routers discover the load range through /server_info's kv_events block, absent {absent}, so the socket would be bound but never advertised",
                str_repr(mode)
            ));
        }
        let Some((_, port)) = parse_bindable_tcp(Some(mode)) else {
            return LoadPubRange::Reason(format!("--load-publish-endpoint={} is not a bindable tcp:// address (a concrete host would be connected to, not bound)", str_repr(mode)));
        };
        base = port;
        for port in [parse_tcp_port(kv_endpoint), parse_tcp_port(replay_endpoint)].into_iter().flatten() {
            if base < port + dp_size && port < base + dp_size {
                return LoadPubRange::Reason(format!("--load-publish-endpoint range [{base}, {}) overlaps the kv-events range [{port}, {})", base + dp_size, port + dp_size));
            }
        }
    }
    if base + dp_size - 1 > 65535 {
        return LoadPubRange::Reason(format!("load port range from {base} would run past the u16 ceiling"));
    }
    LoadPubRange::Fine
}

/// `parse_tcp_port`: the legal port (1..=65535) of a tcp:// endpoint, any host.
fn parse_tcp_port(endpoint: Option<&str>) -> Option<i64> {
    let addr = endpoint?.strip_prefix("tcp://")?;
    let (_, port) = parse_address(addr)?;
    (0 < port && port <= 65535).then_some(port)
}

/// `parse_bindable_tcp`: (host, port) when a PUB socket can bind the endpoint: a wildcard host
/// (`*`, `0.0.0.0`, `::`) and a legal port.
fn parse_bindable_tcp(endpoint: Option<&str>) -> Option<(String, i64)> {
    let addr = endpoint?.strip_prefix("tcp://")?;
    let (host, port) = parse_address(addr)?;
    (matches!(host.as_str(), "*" | "0.0.0.0" | "::") && 0 < port && port <= 65535).then_some((host, port))
}

/// `NetworkAddress.parse(addr)`: (host without brackets, port), None where it raises.
fn parse_address(addr: &str) -> Option<(String, i64)> {
    if addr.is_empty() {
        return None;
    }
    if let Some(inner) = addr.strip_prefix('[') {
        let close = inner.find(']')?;
        let host = inner.get(..close)?;
        if !is_ipv6(host) {
            return None;
        }
        let rest = inner.get(close + 1..)?;
        let port = rest.strip_prefix(':').filter(|p| !p.is_empty())?;
        return Some((host.to_string(), parse_port(port)?));
    }
    let (host, port) = addr.rsplit_once(':')?;
    if host.is_empty() || (host.contains(':') && is_ipv6(host)) {
        return None;
    }
    Some((host.to_string(), parse_port(port)?))
}

/// `_parse_port`: Python's `int()`, then 0..=65535.
fn parse_port(s: &str) -> Option<i64> {
    python_int(s).filter(|p| (0..=65535).contains(p))
}

/// `ipaddress.IPv6Address(host)` succeeds (CPython 3.11), for ASCII text.
fn is_ipv6(text: &str) -> bool {
    if text.contains('/') {
        return false;
    }
    let addr = match text.split_once('%') {
        None => text,
        Some((addr, scope)) => {
            if scope.is_empty() || scope.contains('%') {
                return false;
            }
            addr
        }
    };
    if addr.is_empty() {
        return false;
    }
    let mut parts: Vec<&str> = addr.split(':').collect();
    if parts.len() < 3 {
        return false;
    }
    let mut v4_tail = Vec::new();
    if parts.last().is_some_and(|p| p.contains('.')) {
        let Some(v4) = parts.pop().and_then(ipv4_int) else { return false };
        v4_tail = vec![format!("{:x}", (v4 >> 16) & 0xFFFF), format!("{:x}", v4 & 0xFFFF)];
    }
    let v4_tail: Vec<&str> = v4_tail.iter().map(String::as_str).collect();
    parts.extend(v4_tail);
    if parts.len() > 9 {
        return false;
    }
    let inner = parts.get(1..parts.len().saturating_sub(1)).unwrap_or(&[]);
    let empties: Vec<usize> = inner.iter().enumerate().filter(|(_, p)| p.is_empty()).map(|(i, _)| i + 1).collect();
    let first_empty = parts.first().is_some_and(|p| p.is_empty());
    let last_empty = parts.last().is_some_and(|p| p.is_empty());
    let (hi, lo): (&[&str], &[&str]) = match empties.as_slice() {
        [] => {
            if parts.len() != 8 || first_empty || last_empty {
                return false;
            }
            (&parts, &[])
        }
        [skip] => {
            let mut parts_hi = *skip;
            let mut parts_lo = parts.len() - skip - 1;
            if first_empty {
                parts_hi -= 1;
                if parts_hi != 0 {
                    return false;
                }
            }
            if last_empty {
                parts_lo -= 1;
                if parts_lo != 0 {
                    return false;
                }
            }
            if 8 < parts_hi + parts_lo + 1 {
                return false;
            }
            let hi = parts.get(..parts_hi).unwrap_or(&[]);
            let lo = parts.get(parts.len() - parts_lo..).unwrap_or(&[]);
            (hi, lo)
        }
        _ => return false,
    };
    hi.iter().chain(lo).all(|h| !h.is_empty() && h.len() <= 4 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `IPv4Address(text)._ip`: four decimal octets, no leading zeros.
fn ipv4_int(text: &str) -> Option<u32> {
    let octets: Vec<&str> = text.split('.').collect();
    if octets.len() != 4 {
        return None;
    }
    let mut n: u32 = 0;
    for o in octets {
        if o.is_empty() || o.len() > 3 || !o.bytes().all(|b| b.is_ascii_digit()) || (o != "0" && o.starts_with('0')) {
            return None;
        }
        let v: u32 = o.parse().ok()?;
        if v > 255 {
            return None;
        }
        n = (n << 8) | v;
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(kv: Option<&str>, replay: Option<&str>, dp: i64, mode: &str) -> Option<String> {
        match resolve_load_pub_range(kv, replay, dp, mode) {
            LoadPubRange::Reason(r) => Some(r),
            _ => None,
        }
    }

    #[test]
    fn ipv6_as_python_reads_it() {
        for ok in ["::", "::1", "fe80::1%eth0", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::1:2:3:4:5:6:7", "::ffff:1.2.3.4", "1::8"] {
            assert!(is_ipv6(ok), "{ok}");
        }
        for bad in ["", "1", "1:2", "1:2:3:4:5:6:7:8:9", "1::2::3", ":1:2:3:4:5:6:7", "1:2:3:4:5:6:7:", "12345::", "::ffff:01.2.3.4", "fe80::1%", "g::1", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8"] {
            assert!(!is_ipv6(bad), "{bad}");
        }
    }

    #[test]
    fn load_pub_range_reasons() {
        assert!(reason(Some("tcp://*:5557"), None, 1, "auto").is_none());
        assert_eq!(
            reason(Some("tcp://localhost:5557"), None, 1, "auto").as_deref(),
            Some("--load-publish-endpoint=auto needs a bindable wildcard-host tcp:// --kv-events-config endpoint to pack after; 'tcp://localhost:5557' is not one")
        );
        assert_eq!(reason(Some("tcp://*:65535"), None, 1, "auto").as_deref(), Some("load port range from 65536 would run past the u16 ceiling"));
        assert_eq!(
            reason(Some("tcp://*:5557"), None, 2, "tcp://*:5558").as_deref(),
            Some("--load-publish-endpoint range [5558, 5560) overlaps the kv-events range [5557, 5559)")
        );
        assert_eq!(
            reason(Some("tcp://*:5557"), None, 1, "tcp://10.0.0.1:6000").as_deref(),
            Some("--load-publish-endpoint='tcp://10.0.0.1:6000' is not a bindable tcp:// address (a concrete host would be connected to, not bound)")
        );
        assert!(reason(Some("tcp://[::]:5557"), Some("tcp://*:5558"), 1, "AUTO").is_none());
    }
}
