/* estafette.js: the "verify this game" button (written on branch site-verify); placeholder */
