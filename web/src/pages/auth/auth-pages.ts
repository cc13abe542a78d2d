/** The account pages, loaded as one chunk: register, log in, forgot and reset password. */
export { LoginPage } from './login-page';
export { ForgotPasswordPage, ResetPasswordPage } from './password-pages';
export { RegisterPage } from './register-page';
