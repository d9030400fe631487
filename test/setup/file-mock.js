module.exports = '/static/test-file'
