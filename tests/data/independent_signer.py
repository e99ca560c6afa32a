"""An independent client for the diagnosis tests: it signs requests making the named mistakes.

Reads a JSON list of cases on stdin and prints, for each, the raw HTTP/1.1 request (base64)
with the signature in its Authorization header. Nothing here comes from signscope: the signing
text is built from docs/signing.md's layout with Python's own hmac, hashlib and json.
"""
import base64
import hashlib
import hmac
import json
import sys
import urllib.parse

HOST = "example.test"


def sign_case(c, body):
    m = set(c["mistakes"])
    method, path, query = c["method"], c["path"], c["query"]
    ts, api, key = c["ts"], c["api"], c["key"]
    s_method = method.lower() if "LOWERCASE_METHOD" in m else method
    s_path = path
    if "TRAILING_SLASH_TRIMMED" in m:
        s_path = s_path.rstrip("/ ")
    if "PATH_PERCENT_DECODED" in m:
        s_path = urllib.parse.unquote(s_path)
    if "FULL_URL_AS_PATH" in m:
        scheme, host = {"https": ("https", HOST), "http": ("http", HOST),
                        "vendor": ("https", "indexing.ksearchnet.com")}[c.get("url", "https")]
        s_path = scheme + "://" + host + s_path
    s_query = query
    if "QUERY_PERCENT_DECODED" in m:
        s_query = urllib.parse.unquote(s_query)
    if "QUERY_PARAMS_SORTED" in m:
        s_query = "&".join(sorted(s_query.split("&")))
    if "QUESTION_MARK_BEFORE_QUERY" in m:
        s_query = "?" + s_query.strip()
    prefix = "KLEVU" if "HEADER_PREFIX_DIFFERS" in m else "SVC"
    s_ts = c.get("signed_ts", ts)
    s_ct = c.get("ct", "application/json; charset=utf-8") if "CONTENT_TYPE_DIFFERS" in m else "application/json"
    names = ["X-%s-TIMESTAMP" % prefix, "X-%s-APIKEY" % prefix, "X-%s-AUTH-ALGO" % prefix, "Content-Type"]
    if "LOWERCASE_HEADER_NAMES" in m:
        names = [n.lower() for n in names]
    lines = list(zip(names, [s_ts, api, "HmacSHA384", s_ct]))
    if "HEADER_LINES_REORDERED" in m:
        if c.get("order") == "sorted":
            # A client that keeps its headers in a sorted map.
            lines = sorted(lines, key=lambda nv: nv[0])
        elif isinstance(c.get("order"), list):
            # A client that signs its headers in the order it sends them (main() sends them so).
            lines = [lines[i] for i in c["order"]]
        else:
            lines = [lines[1], lines[0], lines[2], lines[3]]
    eol = "\r\n" if "CRLF_LINE_ENDINGS" in m else "\n"
    head = s_method + eol + s_path + eol
    if "EMPTY_QUERY_LINE_OMITTED" not in m:
        head += s_query + eol
    for n, v in lines:
        head += n + "=" + v + eol

    s_body = body
    doc = json.loads(body.decode("utf-8"))
    if "BODY_RESERIALISED_COMPACT" in m:
        s_body = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()
    if "BODY_RESERIALISED_PRETTY" in m:
        s_body = json.dumps(doc, indent=2, ensure_ascii=False).encode()
    if "BODY_SORTED_KEYS" in m:
        s_body = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    if "BODY_UNICODE_ESCAPED" in m:
        s_body = "".join(ch if ord(ch) < 128 else "\\u%04x" % ord(ch) for ch in s_body.decode()).encode()
    if "BODY_SLASHES_ESCAPED" in m:
        s_body = s_body.replace(b"/", b"\\/")
    if "EMPTY_BODY_SIGNED" in m:
        s_body = b""
    if "TRAILING_LF_AFTER_BODY" in m:
        s_body += b"\n"
    text = head.encode() + s_body

    k = key
    if "KEY_WHITESPACE_TRIMMED" in m:
        k = k.strip()
    if "KEY_WITH_TRAILING_NEWLINE" in m:
        k = k + c.get("newline", "\n")
    if "KEY_QUOTED" in m:
        q = c.get("quote", '"')
        k = q + k + q
    kb = k.encode()
    if "KEY_BASE64_DECODED" in m:
        kb = base64.b64decode(k)
    if "PUBLIC_API_KEY_AS_SECRET" in m:
        kb = api.encode()
    if "OTHER_ACCOUNT_KEY" in m:
        kb = c["other_key"].encode()
    h = hashlib.sha256 if "SHA256_INSTEAD_OF_SHA384" in m else hashlib.sha384
    d = hmac.new(kb, text, h).digest()
    if "HEX_INSTEAD_OF_BASE64" in m:
        sig = d.hex()
    elif "URL_SAFE_BASE64" in m:
        sig = base64.urlsafe_b64encode(d).decode()
    else:
        sig = base64.b64encode(d).decode()
    if "BASE64_PADDING_MISSING" in m:
        sig = sig.rstrip("=")
    return sig


def php_json(doc, pretty):
    """PHP's json_encode($d) / json_encode($d, JSON_PRETTY_PRINT): non-ASCII as \\u escapes,
    '/' as '\\/', four spaces and ": " when pretty."""
    if pretty:
        text = json.dumps(doc, indent=4, ensure_ascii=True)
    else:
        text = json.dumps(doc, separators=(",", ":"), ensure_ascii=True)
    return text.replace("/", "\\/")


def changed_after_signing(change, body):
    """The body as a change made after signing leaves it (the tests' middlewares and tools)."""
    doc = json.loads(body.decode("utf-8"))
    if change == "lf_added":  # echo >> body.json, or a middleware
        return body + b"\n"
    if change == "crlf_added":
        return body + b"\r\n"
    if change == "to_crlf":  # a text-mode transfer: LF became CRLF
        return body.replace(b"\n", b"\r\n")
    if change == "to_lf":  # CRLF became LF
        return body.replace(b"\r\n", b"\n")
    if change == "php_pretty":
        return php_json(doc, True).encode()
    if change == "js_pretty":  # JSON.stringify(d, null, 2)
        return json.dumps(doc, indent=2, ensure_ascii=False).encode()
    if change == "curl_d":  # curl -d @file drops the file's CR and LF bytes
        return body.replace(b"\r", b"").replace(b"\n", b"")
    raise ValueError(change)


def main():
    out = []
    for c in json.load(sys.stdin):
        for i in range(1000):
            body = c["body"].replace("{n}", str(i)).encode()
            # The body the client signed, when the case gives it as the output of a serialiser.
            if c.get("signed_as") == "php":
                body = php_json(json.loads(body.decode("utf-8")), False).encode()
            elif c.get("signed_as") == "python_ascii":
                body = json.dumps(json.loads(body.decode("utf-8")), separators=(",", ":")).encode()
            elif c.get("signed_as") == "pretty2_file":
                body = (json.dumps(json.loads(body.decode("utf-8")), indent=2, ensure_ascii=False) + "\n").encode()
            elif c.get("signed_as") == "pretty4_crlf_file":
                body = json.dumps(json.loads(body.decode("utf-8")), indent=4, ensure_ascii=False).replace("\n", "\r\n").encode()
            sig = sign_case(c, body)
            # URL-safe base64 differs from standard only when the digest has '+' or '/'.
            if "URL_SAFE_BASE64" not in c["mistakes"] or "-" in sig or "_" in sig:
                break
        # Changes after signing: the signature stays, the request changes on its way out.
        if c.get("after_body"):
            body = changed_after_signing(c["after_body"], body)
        query = c.get("sent_query", c["query"])
        target = c["path"] + ("?" + query if query else "")
        sent = [
            "X-SVC-TIMESTAMP: %s\r\n" % c["ts"],
            "X-SVC-APIKEY: %s\r\n" % c["api"],
            "X-SVC-AUTH-ALGO: HmacSHA384\r\n",
            "Content-Type: application/json\r\n",
        ]
        if isinstance(c.get("order"), list):
            sent = [sent[i] for i in c["order"]]
        raw = (
            "%s %s HTTP/1.1\r\nHost: %s\r\n%s"
            "Authorization: Bearer %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
            % (c["method"], target, HOST, "".join(sent), sig, len(body))
        ).encode() + body
        out.append(base64.b64encode(raw).decode())
    print(json.dumps(out))


main()
