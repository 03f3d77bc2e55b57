// The pages style with the kit's theme: this brings its styled-components DefaultTheme
// augmentation (in @campus/kit/theme) into the type check, whatever else the app imports.
import type {} from '@campus/kit/theme';
