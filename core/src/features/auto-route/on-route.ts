/** The config `route` value that turns auto routing on. */
export const AUTO_ROUTE = 'auto';
