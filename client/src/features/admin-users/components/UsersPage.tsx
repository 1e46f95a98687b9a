/** /admin/users (owner only in the sidebar). Its body is built by the users issue. */
export function UsersPage() {
  return <div className="page" />;
}
