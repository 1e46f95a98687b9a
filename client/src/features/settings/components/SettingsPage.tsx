/** /admin/settings. Its body is built by the settings issue. */
export function SettingsPage() {
  return <div className="page" />;
}
