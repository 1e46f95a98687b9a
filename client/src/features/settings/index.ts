// The settings feature's public surface: the server's configuration as a resource (the auction form reads its defaults).
export { systemSettings } from './api/settings-api';
