// A pre-loader used to rebuild a remote with a visible change (remote-deploys.ts): replaces every
// occurrence of `search` with `replacement` in the sources it is applied to.
module.exports = function replaceText(source) {
  const { search, replacement } = this.getOptions();
  return source.split(search).join(replacement);
};
