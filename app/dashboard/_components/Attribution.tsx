// DB-IP's licence (CC BY 4.0) asks for this attribution wherever its geolocation data is shown.
export function Attribution() {
  return (
    <p className="attribution small muted">
      <a href="https://db-ip.com">IP Geolocation by DB-IP</a> (CC BY 4.0)
    </p>
  );
}
