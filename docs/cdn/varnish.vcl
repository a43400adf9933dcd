vcl 4.1;
# Varnish in front of Quire's content API (docs/content-api.md, "CDN"): caches what the answers' Cache-Control
# allows, files each answer under its surrogate keys with varnish-modules' xkey, and takes purges of those keys
# from Quire (QUIRE_CDN_PURGE_URL pointing here). Debian: apt-get install varnish varnish-modules.
import xkey;

backend quire {
  .host = "127.0.0.1";
  .port = "3000";
}

# Who may purge: Quire's servers. Add their addresses when they are not on this host.
acl purgers {
  "127.0.0.1";
  "::1";
}

sub vcl_recv {
  if (req.method == "PURGE") {
    if (client.ip !~ purgers) {
      return (synth(403, "Forbidden"));
    }
    if (!req.http.xkey-purge) {
      return (synth(400, "xkey-purge header missing"));
    }
    set req.http.x-purged = xkey.purge(req.http.xkey-purge);
    return (synth(200, "Purged " + req.http.x-purged));
  }
  # Only the content API is for shared caching; everything else goes straight through.
  if (req.url !~ "^/api/v1/content/") {
    return (pass);
  }
}

sub vcl_backend_response {
  if (beresp.http.Surrogate-Key) {
    set beresp.http.xkey = beresp.http.Surrogate-Key;
  }
}

sub vcl_deliver {
  unset resp.http.xkey;
  if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
}
