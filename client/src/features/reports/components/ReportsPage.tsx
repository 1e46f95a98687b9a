/** /admin/reports. Its body is built by the reports issue. */
export function ReportsPage() {
  return <div className="page" />;
}
